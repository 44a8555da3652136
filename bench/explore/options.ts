/** The explore bench's flags. */

export interface Options {
  large: boolean;
  products: number;
  durationSec: number;
  warmupSec: number;
  connections: number;
  explain: boolean;
}

export function parseOptions(argv: string[]): Options {
  const value = (name: string): string | undefined => {
    const inline = argv.find((a) => a.startsWith(`--${name}=`));
    if (inline) return inline.slice(name.length + 3);
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const number = (name: string): number | undefined => {
    const raw = value(name);
    if (raw === undefined) return undefined;
    const n = Number(raw.replaceAll('_', ''));
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a positive number, got "${raw}"`);
    return n;
  };
  const large = argv.includes('--large');
  return {
    large,
    products: Math.round(number('products') ?? (large ? 1_000_000 : 100_000)),
    durationSec: number('duration') ?? 8,
    warmupSec: number('warmup') ?? 2,
    connections: Math.max(1, Math.round(number('connections') ?? 10)),
    explain: argv.includes('--explain'),
  };
}
