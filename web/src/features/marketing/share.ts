async function copyLink(url: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(url);
    window.alert('Link copied to clipboard!');
    return true;
  } catch (error) {
    // Spec section 8: when copying fails too, it is only logged.
    console.warn('Could not copy the link', error);
    return false;
  }
}

/**
 * Shares a page with the native share sheet; without one, copies the link and says so. A share
 * that fails (other than the visitor closing the sheet) falls back to copying.
 */
export async function shareLink({ title, url }: { title: string; url: string }): Promise<void> {
  if (typeof navigator.share !== 'function') {
    await copyLink(url);
    return;
  }
  try {
    await navigator.share({ title, url });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    await copyLink(url);
  }
}
