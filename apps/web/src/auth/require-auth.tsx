// The guard of SPEC §2: signed-out visitors go to /ui/login, which sends them back to the page they asked for.
import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useAuth } from "./auth-context.js";

export function RequireAuth({ children }: { children: ReactNode }) {
  const { isAuthenticated, loading } = useAuth();
  const location = useLocation();
  if (loading) return <p aria-busy="true">Loading…</p>;
  if (!isAuthenticated) {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to={`/ui/login?next=${encodeURIComponent(from)}`} replace />;
  }
  return <>{children}</>;
}

/** Where to go after sign-in: the asked page when it is one of ours, else My Jobs. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get("next");
  return next?.startsWith("/") && !next.startsWith("//") ? next : "/ui/dataSets";
}
