// Mounts the web app. The session check and, on a list page, the list's first page are sent before React starts, so
// they travel while the script runs. Their answers usually come before the script is done; the start waits for them
// a little, so the first render draws the page itself instead of "Loading…" and then the page (two renders, two
// layouts).
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { api } from "./api/client.js";
import { App, newQueryClient } from "./app.js";
import { type FirstSession, userOf } from "./auth/auth-context.js";
import { listAt } from "./jobs/job-lists.js";
import { applySavedTheme } from "./layout/theme.js";
import "./styles.css";

const WAIT_MS = 250;

const root = document.getElementById("root");
if (root) {
  applySavedTheme();
  const client = newQueryClient();
  const session: FirstSession = { answer: api.session() };
  const list = listAt(location.pathname, location.search);
  // A signed-out visitor's list answers 401: the prefetch keeps nothing, and the page asks again after sign-in.
  const listed = list ? client.prefetchQuery(list) : undefined;
  const answered = session.answer.then((answer) => {
    session.user = userOf(answer);
  });
  const waited = new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  void Promise.race([Promise.allSettled([answered, listed]), waited]).then(() =>
    createRoot(root).render(
      <StrictMode>
        <BrowserRouter>
          <App client={client} firstSession={session} />
        </BrowserRouter>
      </StrictMode>,
    ),
  );
}
