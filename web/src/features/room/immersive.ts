import { useEffect } from 'react';

/**
 * Where a viewer's live room is immersive (the video fills the screen, everything else over it):
 * a phone held either way, and a narrow or short window. Wider and taller windows keep the
 * desktop layout (video, lineup and chat side by side).
 */
export const IMMERSIVE_QUERY = '(max-width: 767px), (max-height: 500px)';

/** What the room adds to the page's viewport tag while immersive (ADR 0025). */
const IMMERSIVE_VIEWPORT = ', viewport-fit=cover, interactive-widget=resizes-content';

/**
 * While the immersive room is shown: the site's header, banner and footer are hidden (they would
 * sit behind the video and take keyboard focus there), the page may draw under a notch (the room
 * keeps its controls inside `env(safe-area-inset-*)`), an on-screen keyboard resizes the page
 * rather than covering the chat input, and `--room-height` follows the visual viewport (iOS
 * Safari, which ignores `interactive-widget`, shrinks only that when the keyboard opens).
 * Everything is put back when the room unmounts.
 */
export function useImmersivePage() {
  useEffect(() => {
    const root = document.documentElement;
    const meta = document.querySelector<HTMLMetaElement>('meta[name="viewport"]');
    const viewport = meta?.content;
    if (meta && viewport !== undefined && !viewport.includes('viewport-fit')) {
      meta.content = `${viewport}${IMMERSIVE_VIEWPORT}`;
    }
    root.dataset.immersive = 'true';
    const visual = window.visualViewport;
    const follow = () => {
      if (!visual) return;
      root.style.setProperty('--room-height', `${visual.height}px`);
      root.style.setProperty('--room-top', `${visual.offsetTop}px`);
    };
    follow();
    visual?.addEventListener('resize', follow);
    visual?.addEventListener('scroll', follow);
    return () => {
      visual?.removeEventListener('resize', follow);
      visual?.removeEventListener('scroll', follow);
      delete root.dataset.immersive;
      root.style.removeProperty('--room-height');
      root.style.removeProperty('--room-top');
      if (meta && viewport !== undefined) meta.content = viewport;
    };
  }, []);
}

export type FitChoice = 'auto' | 'fill' | 'fit';

/**
 * How the video sits in the screen: `cover` fills it (cropping the edges), `contain` shows the
 * whole picture (letterboxed). By default a video fills a screen of its own orientation (a
 * portrait stream on a phone held upright) and is letterboxed on the other; the viewer's choice
 * wins. Until the video's size is known it is letterboxed (nothing is cropped by a guess).
 */
export function videoFit(
  video: { width: number; height: number } | null,
  portraitScreen: boolean,
  choice: FitChoice,
): 'cover' | 'contain' {
  if (choice === 'fill') return 'cover';
  if (choice === 'fit') return 'contain';
  if (!video || video.width === 0 || video.height === 0) return 'contain';
  const portraitVideo = video.height > video.width;
  return portraitVideo === portraitScreen ? 'cover' : 'contain';
}

/**
 * The choice after a tap on Fill/Fit: the other fit, or 'auto' when that is what the screen's
 * orientation gives anyway (so turning the phone later picks the fit for the new orientation).
 */
export function toggledFit(current: 'cover' | 'contain', automatic: 'cover' | 'contain'): FitChoice {
  const next = current === 'cover' ? 'contain' : 'cover';
  if (next === automatic) return 'auto';
  return next === 'cover' ? 'fill' : 'fit';
}
