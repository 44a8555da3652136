import { cn } from '../../lib/cn.ts';
import { type EncoderSettings, encoderSettingRows } from './encoder-settings.ts';

/** The encoder settings to use, as a short definition list (Video H.264, Audio AAC, …). */
export function EncoderSettingsList({
  settings,
  className,
  testId,
}: {
  settings: EncoderSettings;
  className?: string;
  testId?: string;
}) {
  return (
    <dl
      className={cn('grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm', className)}
      data-testid={testId}
    >
      {encoderSettingRows(settings).map(({ label, value }) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="font-medium">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
