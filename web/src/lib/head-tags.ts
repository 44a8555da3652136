import { DEFAULT_DESCRIPTION, type HeadTag } from '@streamshop/contract/seo.ts';

/** Writes one head tag (title, meta or link) through DOM APIs, making the element when missing. */
export function setHeadTag(tag: HeadTag): void {
  if (tag.kind === 'title') {
    document.title = tag.text;
    return;
  }
  const selector = tag.kind === 'meta' ? `meta[${tag.attribute}="${tag.key}"]` : `link[rel="${tag.rel}"]`;
  let element = document.head.querySelector(selector);
  if (!element) {
    element = document.createElement(tag.kind);
    if (tag.kind === 'meta') element.setAttribute(tag.attribute, tag.key);
    else element.setAttribute('rel', tag.rel);
    document.head.append(element);
  }
  if (tag.kind === 'meta') element.setAttribute('content', tag.content);
  else element.setAttribute('href', tag.href);
}

/** Removes the head elements a page owns (`owned`, a selector) and puts the site's description back. */
export function resetHead(owned: string): void {
  for (const element of document.head.querySelectorAll(owned)) element.remove();
  document.head.querySelector('meta[name="description"]')?.setAttribute('content', DEFAULT_DESCRIPTION);
}
