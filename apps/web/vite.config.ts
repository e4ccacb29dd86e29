// Vite build of the web app; the server serves dist/ (with the .br/.gz copies written beside its assets) and falls
// back to index.html for client routes.
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./vite-precompress.js";

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: { conditions: ["source"] },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { "/api": "http://localhost:8080" } },
});
