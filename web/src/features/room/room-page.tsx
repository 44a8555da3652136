import { useParams } from 'react-router';
import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export function RoomPage() {
  const { name } = useParams();
  usePageTitle('Live Stream');
  if (!name) return <ComingSoon title="Live Stream" note="Invalid room URL" />;
  return (
    <ComingSoon
      title="Live Stream"
      subtitle={`Room ${name}`}
      note="Live video and chat for this room are coming soon."
    />
  );
}
