import type { Plan } from '@streamshop/contract/constants.ts';
import { MonitorUp } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { useEncodersTaken } from './api.ts';
import { planEncoderSettings } from './encoder-settings.ts';
import { EncoderSettingsList } from './encoder-settings-list.tsx';

/**
 * On /golive: going live from OBS instead of the camera, with the settings the plan allows; nothing
 * on a server that takes no encoder (RTMP off).
 */
export function ObsSetupCard({ plan }: { plan: Plan }) {
  if (!useEncodersTaken()) return null;
  return (
    <Card data-testid="golive-obs">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <MonitorUp className="size-5 text-primary" aria-hidden="true" />
          Stream from OBS
        </CardTitle>
        <CardDescription>
          Once the stream is created, its room shows the server URL and stream key for OBS or any RTMP
          encoder. The stream goes live when your encoder connects.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <EncoderSettingsList settings={planEncoderSettings(plan)} testId="golive-obs-settings" />
      </CardContent>
    </Card>
  );
}
