// The navigation bar: brand, theme toggle, and sign-in/register (signed out) or the user and sign-out.
import { Link, useNavigate } from "react-router";
import { useAuth } from "../auth/auth-context.js";
import { useTheme } from "./theme.js";

export function TopBar() {
  const { user, isAuthenticated, signOut } = useAuth();
  const [theme, toggleTheme] = useTheme();
  const navigate = useNavigate();
  return (
    <header className="app-header">
      <Link to="/" className="brand">
        <svg width="26" height="26" viewBox="0 0 26 26" aria-hidden="true">
          <rect x="1" y="1" width="24" height="24" rx="5" fill="#2f6fb3" />
          <path d="M5 17 l4 -8 l4 10 l4 -12 l4 8" fill="none" stroke="#fff" strokeWidth="2" />
        </svg>
        Tracemill
      </Link>
      <div className="header-actions">
        <button
          type="button"
          className="theme-toggle"
          aria-pressed={theme === "dark"}
          onClick={toggleTheme}
          title="Dark mode"
        >
          {theme === "dark" ? "☀ Light mode" : "☾ Dark mode"}
        </button>
        {isAuthenticated ? (
          <>
            <Link to="/ui/profile" className="user-name">
              {user?.userName}
            </Link>
            <button
              type="button"
              onClick={async () => {
                await signOut();
                navigate("/ui/login");
              }}
            >
              Sign out
            </button>
          </>
        ) : (
          <>
            <Link to="/ui/login" className="button">
              Sign in
            </Link>
            <Link to="/ui/register" className="button primary">
              Register
            </Link>
          </>
        )}
      </div>
    </header>
  );
}
