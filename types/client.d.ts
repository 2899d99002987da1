// What the browser client adds to the page's globals (hand-written; types/protocol.d.ts is
// generated).

interface Window {
  /** Handles for the end-to-end tests (app.js). */
  zackzack: Record<string, unknown>;
  /** Safari before 14.1 (sound.js). */
  webkitAudioContext?: typeof AudioContext;
}
