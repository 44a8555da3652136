import { usePageTitle } from '../../lib/page-title.ts';
import { HELP_CENTER, PRIVACY_POLICY, TERMS_OF_SERVICE } from './content.ts';
import { SiteDocumentPage } from './site-document.tsx';

/** /help: the Help Center (its words: content.ts). */
export function HelpPage() {
  usePageTitle(HELP_CENTER.title);
  return <SiteDocumentPage document={HELP_CENTER} testId="help-page" />;
}

/** /privacy: the Privacy Policy (its words: content.ts). */
export function PrivacyPage() {
  usePageTitle(PRIVACY_POLICY.title);
  return <SiteDocumentPage document={PRIVACY_POLICY} testId="privacy-page" />;
}

/** /terms: the Terms of Service (its words: content.ts). */
export function TermsPage() {
  usePageTitle(TERMS_OF_SERVICE.title);
  return <SiteDocumentPage document={TERMS_OF_SERVICE} testId="terms-page" />;
}
