import { ComingSoon } from '../../components/ui/coming-soon.tsx';
import { usePageTitle } from '../../lib/page-title.ts';

export type StreamDiscVariant = 'disc' | 'music' | 'film';

const headlines: Record<StreamDiscVariant, { title: string; subtitle: string }> = {
  disc: {
    title: 'The Future Is Here',
    subtitle: 'Stream Disc: a collectible you tap to stream or to buy, for music, film and art.',
  },
  music: {
    title: 'Stream Disc: A Modern Alternative to CDs & Vinyl',
    subtitle: 'Tap the disc to stream the album and unlock what comes with it.',
  },
  film: {
    title: 'Stream Disc: A Modern Alternative to DVDs & Blu-ray',
    subtitle: 'Tap the disc to stream the film and unlock what comes with it.',
  },
};

/** /stream-disc and its music and film variants. */
export function StreamDiscPage({ variant }: { variant: StreamDiscVariant }) {
  const { title, subtitle } = headlines[variant];
  usePageTitle(title);
  return (
    <ComingSoon
      title={title}
      subtitle={subtitle}
      note="Pre-orders and the full Stream Disc story are coming soon."
    />
  );
}

export const StreamDiscLandingPage = () => <StreamDiscPage variant="disc" />;
export const StreamDiscMusicPage = () => <StreamDiscPage variant="music" />;
export const StreamDiscFilmPage = () => <StreamDiscPage variant="film" />;
