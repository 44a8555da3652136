import type { AccountSession } from '@streamshop/contract/account.ts';
import Bowser from 'bowser';

/** The browser and system a session's User-Agent names, read by bowser: 'Chrome 126 on Windows 10'. */
export function describeUserAgent(userAgent: string | null): Pick<AccountSession, 'description' | 'device'> {
  if (!userAgent) return { description: 'Unknown browser', device: 'other' };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(' ') : undefined;
  const os = parsed.os.name
    ? [parsed.os.name, parsed.os.versionName ?? parsed.os.version?.split('.')[0]].filter(Boolean).join(' ')
    : undefined;
  const description =
    browser && os ? `${browser} on ${os}` : (browser ?? (os ? `A browser on ${os}` : 'Unknown browser'));
  const type = parsed.platform.type;
  const device = type === 'desktop' || type === 'mobile' || type === 'tablet' ? type : 'other';
  return { description, device };
}
