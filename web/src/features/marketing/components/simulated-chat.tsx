import { useRef, useState } from 'react';
import { useRandomTimer } from '../hooks.ts';
import { CHAT } from '../timings.ts';

/** A demo chat message (spec section 3): client only. */
export interface SimulatedChatMessage {
  id: number;
  user: string;
  message: string;
  avatar: string;
  timestamp: number;
}

const CANNED: { user: string; message: string }[] = [
  { user: 'vinylvera', message: 'that colourway is unreal 😍' },
  { user: 'beatsbykai', message: 'is the disc numbered?' },
  { user: 'StreamShop', message: 'Every Founders Batch disc is numbered 🔢' },
  { user: 'mo_collects', message: 'just tapped mine, it opened the album instantly' },
  { user: 'lenaframes', message: 'need the film edition for my shelf' },
  { user: 'djnoor', message: '🔥🔥🔥' },
  { user: 'paperplanes', message: 'how many are left in this drop?' },
  { user: 'theo.makes', message: 'bought two, one for a gift 🎁' },
  { user: 'aria_live', message: 'the bonus track alone is worth it' },
  { user: 'sam_in_sf', message: 'does it work on android too?' },
  { user: 'StreamShop', message: 'Any phone with NFC, or scan the QR code 📱' },
  { user: 'gracenotes', message: 'waiting for the listening party 🎶' },
  { user: 'kofi.art', message: 'would love a print edition for my art' },
  { user: 'jules', message: 'checkout took 10 seconds, wow' },
  { user: 'nightowl', message: 'first time watching a live drop, this is fun' },
  { user: 'ritz', message: '💯 best merch idea this year' },
];

const AVATAR_COLORS = ['#a855f7', '#ec4899', '#f97316', '#22c55e', '#06b6d4', '#eab308'];

function avatarFor(user: string): string {
  let hash = 0;
  for (const char of user) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return AVATAR_COLORS[hash % AVATAR_COLORS.length] ?? '#a855f7';
}

/** Latest 15 canned messages, a new one every 1.5 to 2.5 s. */
export function useSimulatedChat(): SimulatedChatMessage[] {
  const next = useRef(4);
  const [messages, setMessages] = useState<SimulatedChatMessage[]>(() =>
    CANNED.slice(0, 4).map((canned, index) => ({
      id: index,
      ...canned,
      avatar: avatarFor(canned.user),
      timestamp: Date.now(),
    })),
  );
  useRandomTimer(
    () => {
      const index = next.current;
      next.current += 1;
      const canned = CANNED[index % CANNED.length] ?? CANNED[0];
      if (!canned) return;
      setMessages((current) =>
        [...current, { id: index, ...canned, avatar: avatarFor(canned.user), timestamp: Date.now() }].slice(
          -CHAT.keep,
        ),
      );
    },
    { minMs: CHAT.minMs, maxMs: CHAT.maxMs },
  );
  return messages;
}

/** The demo chat, with its own messages: a new one re-renders the chat, not the page around it. */
export function SimulatedChat() {
  const messages = useSimulatedChat();
  return (
    <section
      aria-label="Live chat (demo)"
      className="flex h-full flex-col rounded-xl border border-border bg-card/80"
    >
      <header className="flex items-center justify-between border-border border-b px-4 py-3">
        <span className="font-semibold">Live Chat</span>
        <span className="text-muted-foreground text-xs">demo</span>
      </header>
      <ol
        className="flex flex-1 flex-col justify-end gap-2 overflow-hidden px-4 py-3 text-sm"
        data-testid="simulated-chat"
      >
        {messages.map((message) => (
          <li key={message.id} className="flex items-start gap-2" data-testid="chat-message">
            <span
              aria-hidden="true"
              className="flex size-6 shrink-0 items-center justify-center rounded-full font-bold text-[10px] text-white uppercase"
              style={{ backgroundColor: message.avatar }}
            >
              {message.user.slice(0, 1)}
            </span>
            <p className="min-w-0">
              <span className="font-semibold text-purple-300">{message.user}</span>{' '}
              <span className="break-words text-foreground/90">{message.message}</span>
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
