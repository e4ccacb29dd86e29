// A success message carried by a navigation (its state's `notice`), shown once at the top of the screen it leads to:
// "Account created" on Login after Register, "Saved" on My Jobs after an edit.
import { useLocation } from "react-router";

/** The navigation options that carry a notice: navigate(to, withNotice("…")). */
export function withNotice(notice: string): { state: { notice: string } } {
  return { state: { notice } };
}

export function FlashNotice() {
  const state: unknown = useLocation().state;
  const notice = typeof state === "object" && state !== null && "notice" in state ? state.notice : undefined;
  if (typeof notice !== "string") return null;
  return (
    <div className="banners">
      <div className="banner success" role="status">
        {notice}
      </div>
    </div>
  );
}
