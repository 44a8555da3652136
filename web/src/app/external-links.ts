import type { SiteLinks } from '@streamshop/contract/site.ts';

/** The operator's product sites the drawer shows as logos: only those whose address is set. */
export function productSites(links: SiteLinks): Array<{ name: string; href: string; mark: string }> {
  const sites = [
    { name: 'Drop Mode', href: links.dropMode, mark: 'DM' },
    { name: 'Stream Disc', href: links.streamDisc, mark: 'SD' },
  ];
  return sites.flatMap((site) => (site.href ? [{ ...site, href: site.href }] : []));
}
