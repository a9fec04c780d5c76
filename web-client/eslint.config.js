// Lints the web client: TypeScript and Svelte, with the recommended rules of each. Formatting
// is Prettier's job (`npm run format:check`), not ESLint's.
import js from "@eslint/js";
import svelte from "eslint-plugin-svelte";
import globals from "globals";
import ts from "typescript-eslint";
import svelteConfig from "./svelte.config.js";

export default ts.config(
  { ignores: ["dist/", "node_modules/", "test-results/", "src/protocol/"] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // Prettier writes `{" "}` to keep a space between a tag and an expression.
      "svelte/no-useless-mustaches": "off",
      // Flags every Map, Set and URLSearchParams in a component, also the working values of a
      // function or the timers of an effect, which are never state a template reads.
      "svelte/prefer-svelte-reactivity": "off",
      // `_name` marks a binding kept on purpose (a destructured field left out, say).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["**/*.svelte", "**/*.svelte.ts"],
    languageOptions: {
      parserOptions: { parser: ts.parser, extraFileExtensions: [".svelte"], svelteConfig },
    },
  },
);
