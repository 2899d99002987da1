// ESLint for the browser client and its unit tests (docs/web.md): `npx eslint .` in
// scripts/test.sh. The recommended rules, plus a few that catch slips the type check lets by.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "artifacts/", "build/", "dist/", "**/*.min.js"] },
  js.configs.recommended,
  {
    files: ["src/zackzack/web/js/**/*.js", "src/zackzack/games/*/web/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // The unit tests run in Node with a stand-in page (tests/js/page.js): both kinds of globals.
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node, ...globals.browser } },
  },
  {
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
];
