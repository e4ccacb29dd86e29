// The browser tab's title for the screen shown: "<screen> — Tracemill", so tabs and history entries tell screens apart.
import { useEffect } from "react";

export const APP_NAME = "Tracemill";

export function pageTitle(screen?: string): string {
  return screen ? `${screen} — ${APP_NAME}` : APP_NAME;
}

/** Sets document.title while the calling screen is shown (Home passes nothing: the app's name alone). */
export function usePageTitle(screen?: string): void {
  useEffect(() => {
    document.title = pageTitle(screen);
  }, [screen]);
}
