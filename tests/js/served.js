// @ts-check
// Lay the client's files out as the server serves them (`node --import ./tests/js/served.js`):
// /static/js/ is src/zackzack/web/js/ and /static/games/NAME/ is a game's web/ folder, so a
// game's "../../js/art.js" and js/games.js's "../games/NAME/cards.js" find their modules.
import { register } from "node:module";

register("./served-hooks.js", import.meta.url);
