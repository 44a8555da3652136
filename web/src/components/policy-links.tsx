import { Link } from 'react-router';

const linkClass = 'underline underline-offset-2 hover:text-foreground';

/**
 * "Terms of Service and Privacy Policy" as links to /terms and /privacy, for the notices of the
 * forms that ask people to agree to them. New tabs, so the form keeps what was typed.
 */
export function PolicyLinks() {
  return (
    <>
      <Link to="/terms" target="_blank" rel="noopener noreferrer" className={linkClass}>
        Terms of Service
      </Link>{' '}
      and{' '}
      <Link to="/privacy" target="_blank" rel="noopener noreferrer" className={linkClass}>
        Privacy Policy
      </Link>
    </>
  );
}
