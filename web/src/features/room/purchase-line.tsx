import { ShoppingBag } from 'lucide-react';
import type { ReactNode } from 'react';

/** The server's line for a purchase in the room ('@buyer just bought Title'): no author, no menu. */
export function PurchaseLine({ text, time }: { text: string; time?: ReactNode }) {
  return (
    <div
      className="flex items-start gap-2 rounded-md border border-primary/30 bg-primary/10 px-2.5 py-1.5 text-sm"
      data-testid="chat-purchase"
    >
      <ShoppingBag className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      <p className="min-w-0 flex-1 break-words">
        <span className="font-medium" data-testid="chat-purchase-text">
          {text}
        </span>
        {time}
      </p>
    </div>
  );
}
