import { Play } from 'lucide-react';
import { cn } from '../lib/cn.ts';

/** The mark and the wordmark; `wordmarkClassName` can hide the word where space is short (a phone's header). */
export function Logo({ className, wordmarkClassName }: { className?: string; wordmarkClassName?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold text-lg tracking-tight', className)}>
      <span className="relative flex size-8 items-center justify-center rounded-lg bg-gradient-to-br from-purple-500 to-pink-500">
        <Play className="size-4 fill-white text-white" aria-hidden="true" />
        <span className="absolute -top-0.5 -right-0.5 size-2.5 rounded-full border-2 border-background bg-live" />
      </span>
      <span className={wordmarkClassName}>StreamShop</span>
    </span>
  );
}
