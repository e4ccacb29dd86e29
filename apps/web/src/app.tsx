// The app shell: providers, top bar, side menu, the routed page (SPEC §2), footer.

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { Capability } from "@tracemill/contracts";
import { type ReactNode, Suspense, useState } from "react";
import { Route, Routes } from "react-router";
import { AuthProvider, type FirstSession } from "./auth/auth-context.js";
import { RequireAuth } from "./auth/require-auth.js";
import { MyJobsPage, SharedJobsPage } from "./jobs/job-lists.js";
import { FlashNotice } from "./layout/flash-notice.js";
import { PartnerLogos } from "./layout/partner-logos.js";
import { SideMenu } from "./layout/side-menu.js";
import { TopBar } from "./layout/top-bar.js";
import {
  AboutPage,
  CapabilitiesPage,
  CreateJobRoute,
  FeatureSetPage,
  FileFormatsPage,
  JobDetailsPage,
  ProfilePage,
  UpdateJobPage,
  UsagePage,
} from "./lazy-screens.js";
import { capabilityRoutes } from "./pages/capability-routes.js";
import { HomePage } from "./pages/home-page.js";
import { LoginPage } from "./pages/login-page.js";
import { RegisterPage } from "./pages/register-page.js";

/** A fresh client with the app's defaults. */
export const newQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

const guarded = (page: ReactNode) => <RequireAuth>{page}</RequireAuth>;

interface AppProps {
  /** The client the start already filled (main.tsx); tests leave it out and get a fresh one. */
  client?: QueryClient;
  /** The session check the start already sent. */
  firstSession?: FirstSession;
}

export function App({ client, firstSession }: AppProps) {
  const [queryClient] = useState(() => client ?? newQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider firstSession={firstSession}>
        <div className="app">
          <a href="#main" className="skip-link">
            Skip to content
          </a>
          <TopBar />
          <div className="app-body">
            <SideMenu />
            <main id="main" tabIndex={-1}>
              <FlashNotice />
              <Suspense fallback={<p aria-busy="true">Loading…</p>}>
                <Routes>
                  <Route path="/" element={<HomePage />} />
                  <Route path="/ui/login" element={<LoginPage />} />
                  <Route path="/ui/register" element={<RegisterPage />} />
                  <Route path="/ui/dataSets" element={guarded(<MyJobsPage />)} />
                  <Route path="/ui/public/dataSets" element={<SharedJobsPage />} />
                  {(Object.entries(capabilityRoutes) as [Capability, string][]).map(([capability, path]) => (
                    <Route
                      key={capability}
                      path={path}
                      element={guarded(<CreateJobRoute key={capability} capability={capability} />)}
                    />
                  ))}
                  <Route path="/ui/update" element={guarded(<UpdateJobPage />)} />
                  <Route path="/ui/details" element={<JobDetailsPage />} />
                  <Route path="/ui/profile" element={guarded(<ProfilePage />)} />
                  <Route path="/ui/resources/feature/set" element={guarded(<FeatureSetPage />)} />
                  <Route path="/ui/resources/file/formats" element={guarded(<FileFormatsPage />)} />
                  <Route path="/ui/resources/capabilities" element={<CapabilitiesPage />} />
                  <Route path="/ui/resources/usage" element={<UsagePage />} />
                  <Route path="/ui/resources/about" element={<AboutPage />} />
                  <Route path="*" element={<HomePage />} />
                </Routes>
              </Suspense>
            </main>
          </div>
          <footer className="app-footer">
            <PartnerLogos />
            <small>Tracemill — for research and education only.</small>
          </footer>
        </div>
      </AuthProvider>
    </QueryClientProvider>
  );
}
