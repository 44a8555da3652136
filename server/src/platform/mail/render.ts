/**
 * One template, two parts: a message's body is described once (heading, paragraphs, a button) and
 * rendered both as plain text and as HTML with the same words and links.
 */

export interface MailBody {
  subject: string;
  heading: string;
  /** Before the button. */
  paragraphs: string[];
  /** The one thing to do, as a button (HTML) and a bare link (text). */
  action?: { label: string; url: string };
  /** After the button: what to do if this was not you, how long the link works. */
  after?: string[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const SIGNATURE = 'StreamShop';

function text(body: MailBody): string {
  const lines = [body.heading, '', ...body.paragraphs.flatMap((p) => [p, ''])];
  if (body.action) lines.push(`${body.action.label}: ${body.action.url}`, '');
  for (const p of body.after ?? []) lines.push(p, '');
  lines.push(`— ${SIGNATURE}`);
  return `${lines.join('\n')}\n`;
}

function html(body: MailBody): string {
  const paragraph = (p: string) =>
    `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#27272a">${escapeHtml(p)}</p>`;
  const button = body.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(body.action.url)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#7c3aed;color:#ffffff;font-weight:600;text-decoration:none">${escapeHtml(body.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#52525b">Or paste this link into your browser: <a href="${escapeHtml(body.action.url)}" style="color:#7c3aed;word-break:break-all">${escapeHtml(body.action.url)}</a></p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(body.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:system-ui,-apple-system,'Segoe UI',sans-serif">
<div style="max-width:560px;margin:0 auto;padding:32px;border-radius:12px;background:#ffffff">
<h1 style="margin:0 0 20px;font-size:22px;color:#18181b">${escapeHtml(body.heading)}</h1>
${body.paragraphs.map(paragraph).join('\n')}
${button}
${(body.after ?? []).map(paragraph).join('\n')}
<p style="margin:24px 0 0;font-size:13px;color:#71717a">— ${SIGNATURE}</p>
</div></body></html>
`;
}

export function renderMail(body: MailBody): RenderedMail {
  return { subject: body.subject, text: text(body), html: html(body) };
}
