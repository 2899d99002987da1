// @ts-check
// The resolve hook of served.js: a served address becomes the file that the server serves.

const GAME_JS = /\/src\/zackzack\/games\/js\//;
const WEB_GAMES = /\/src\/zackzack\/web\/games\/([\w-]+)\//;

/**
 * @param {string} specifier
 * @param {{parentURL?: string}} context
 * @param {(specifier: string, context: object) => Promise<{url: string}>} next
 */
export async function resolve(specifier, context, next) {
  if (context.parentURL && /^\.\.?\//.test(specifier)) {
    const url = new URL(specifier, context.parentURL).href;
    const served = url.replace(GAME_JS, "/src/zackzack/web/js/")
      .replace(WEB_GAMES, (_, name) => `/src/zackzack/games/${name.replace(/-/g, "_")}/web/`);
    if (served !== url) return next(served, context);
  }
  return next(specifier, context);
}
