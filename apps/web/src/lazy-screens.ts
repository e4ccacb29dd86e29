// The screens that are not in the first script: each a chunk of its own, fetched when first opened, so the first page a
// visitor sees (the lists, sign-in, home) parses and runs no wizard, explorer or chart code.
import { lazy } from "react";

const load = {
  details: () => import("./jobs/job-details-page.js"),
  create: () => import("./jobs/run-again.js"),
  update: () => import("./jobs/update-job-page.js"),
  profile: () => import("./pages/profile-page.js"),
  featureSet: () => import("./pages/feature-set-page.js"),
  fileFormats: () => import("./pages/file-formats-page.js"),
  capabilities: () => import("./pages/capabilities-page.js"),
  usage: () => import("./pages/usage-page.js"),
  about: () => import("./pages/about-page.js"),
};

export const JobDetailsPage = lazy(() => load.details().then((m) => ({ default: m.JobDetailsPage })));
export const CreateJobRoute = lazy(() => load.create().then((m) => ({ default: m.CreateJobRoute })));
export const UpdateJobPage = lazy(() => load.update().then((m) => ({ default: m.UpdateJobPage })));
export const ProfilePage = lazy(() => load.profile().then((m) => ({ default: m.ProfilePage })));
export const FeatureSetPage = lazy(() => load.featureSet().then((m) => ({ default: m.FeatureSetPage })));
export const FileFormatsPage = lazy(() => load.fileFormats().then((m) => ({ default: m.FileFormatsPage })));
export const CapabilitiesPage = lazy(() => load.capabilities().then((m) => ({ default: m.CapabilitiesPage })));
export const UsagePage = lazy(() => load.usage().then((m) => ({ default: m.UsagePage })));
export const AboutPage = lazy(() => load.about().then((m) => ({ default: m.AboutPage })));

/** Loads every screen's module now: the component tests do, so that no test's time limit pays for a first load. */
export const loadAllScreens = () => Promise.all(Object.values(load).map((each) => each()));
