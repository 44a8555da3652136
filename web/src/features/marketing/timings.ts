/** The marketing pages' timings, spec sections 4 and 9. */
export const EXPLAINER_STEP_MS = 2000;
export const SUCCESS_VIEW_MS = 3000;
export const RESERVED_VIEW_MS = 5000;
export const BETA_TOAST_MS = 5000;
export const DISC_TOAST_MS = 5000;
export const PREORDER_SUCCESS_TOAST_MS = 8000;
export const REACTION_LIFETIME_MS = 4500;
export const EDITION_REACTION_LIFETIME_MS = 5000;
export const REACTION_BURST = { minMs: 1500, maxMs: 3000, minCount: 1, maxCount: 3 };
export const EDITION_REACTIONS = { firstMs: 1000, minMs: 2000, maxMs: 4000, chance: 0.7 };
export const CHAT = { keep: 15, minMs: 1500, maxMs: 2500 };
export const BLOG_LOGO_FRAME_MS = 160;
export const BLOG_LOGO_FRAMES = 9;
