// The app shell: providers, top bar, side menu, the routed page (SPEC §2), footer.

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { Capability } from "@tracemill/contracts";
import { type ReactNode, useState } from "react";
import { Route, Routes } from "react-router";
import { AuthProvider } from "./auth/auth-context.js";
import { RequireAuth } from "./auth/require-auth.js";
import { JobDetailsPage } from "./jobs/job-details-page.js";
import { MyJobsPage, SharedJobsPage } from "./jobs/job-lists.js";
import { CreateJobRoute } from "./jobs/run-again.js";
import { UpdateJobPage } from "./jobs/update-job-page.js";
import { FlashNotice } from "./layout/flash-notice.js";
import { PartnerLogos } from "./layout/partner-logos.js";
import { SideMenu } from "./layout/side-menu.js";
import { TopBar } from "./layout/top-bar.js";
import { AboutPage } from "./pages/about-page.js";
import { CapabilitiesPage } from "./pages/capabilities-page.js";
import { capabilityRoutes } from "./pages/capability-routes.js";
import { FeatureSetPage } from "./pages/feature-set-page.js";
import { FileFormatsPage } from "./pages/file-formats-page.js";
import { HomePage } from "./pages/home-page.js";
import { LoginPage } from "./pages/login-page.js";
import { ProfilePage } from "./pages/profile-page.js";
import { RegisterPage } from "./pages/register-page.js";
import { UsagePage } from "./pages/usage-page.js";

const guarded = (page: ReactNode) => <RequireAuth>{page}</RequireAuth>;

export function App() {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <div className="app">
          <a href="#main" className="skip-link">
            Skip to content
          </a>
          <TopBar />
          <div className="app-body">
            <SideMenu />
            <main id="main" tabIndex={-1}>
              <FlashNotice />
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
