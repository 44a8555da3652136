/** `npm run bench [-- name ...]`: runs the named benchmarks (all by default). */
const benches: Record<string, string> = {
  foundation: './foundation.ts',
  explore: './explore.ts',
  chat: './chat.ts',
  checkout: './checkout.ts',
  auction: './auction.ts',
  notify: './notify.ts',
  takeover: './takeover.ts',
  shop: './shop.ts',
  latency: './latency.ts',
  fanout: './fanout.ts',
  rendition: './rendition.ts',
  failover: './failover.ts',
  lighthouse: './lighthouse.ts',
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const name of wanted.length ? wanted : Object.keys(benches)) {
  const file = benches[name];
  if (!file) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benches).join(', ')}`);
    process.exit(2);
  }
  await import(file);
}

export {};
