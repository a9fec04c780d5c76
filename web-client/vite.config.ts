import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// The dev server proxies the API and the WebSocket to the real server on :8080 (`make run`),
// so `npm run dev` gives hot reloading against real rooms and engines.
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
    // Source maps are for developers (`npm run dev` has them); the server does not serve them.
    sourcemap: false,
  },
});
