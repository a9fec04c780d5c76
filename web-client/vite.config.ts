import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// The dev server proxies the API and the WebSocket to a server running on :8080 (`make run`
// or `npm run mock`), so `npm run dev` works against either.
const backend = process.env.PANDEMONIUM_BACKEND ?? "http://localhost:8080";

export default defineConfig({
  plugins: [svelte()],
  server: {
    proxy: {
      "/api": backend,
      "/healthz": backend,
      "/ws": { target: backend.replace(/^http/, "ws"), ws: true },
    },
  },
  build: {
    target: "es2022",
    sourcemap: true,
  },
});
