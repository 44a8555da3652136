import { useEffect, useRef, useState } from 'react';

/** Whether the visitor asked the system for less motion (re-exported for the marketing components). */
export { usePrefersReducedMotion } from '../../lib/use-media-query.ts';

/**
 * An index 0..count-1 that advances every `intervalMs` (the explainers' 2 s steps) while
 * `enabled`; the setter jumps to a step either way.
 */
export function useStepCycle(
  count: number,
  intervalMs: number,
  enabled = true,
): [number, (step: number) => void] {
  const [step, setStep] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    const timer = setInterval(() => setStep((current) => (current + 1) % count), intervalMs);
    return () => clearInterval(timer);
  }, [count, intervalMs, enabled]);
  return [step, setStep];
}

/** Random whole milliseconds in [min, max]. */
export const randomBetween = (min: number, max: number) => Math.round(min + Math.random() * (max - min));

/**
 * A chain of timeouts with random gaps, run while mounted. Every timer it starts is cleared on
 * unmount, so navigating away leaves nothing running.
 */
export function useRandomTimer(
  tick: () => void,
  {
    minMs,
    maxMs,
    firstMs,
    enabled = true,
  }: { minMs: number; maxMs: number; firstMs?: number; enabled?: boolean },
): void {
  const tickRef = useRef(tick);
  tickRef.current = tick;
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout>;
    const schedule = (delay: number) => {
      timer = setTimeout(() => {
        tickRef.current();
        schedule(randomBetween(minMs, maxMs));
      }, delay);
    };
    schedule(firstMs ?? randomBetween(minMs, maxMs));
    return () => clearTimeout(timer);
  }, [minMs, maxMs, firstMs, enabled]);
}
