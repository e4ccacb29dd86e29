// Login (SPEC §2, §5): email and password, show/hide, Signin, and a link to Register; back to the asked page after.
import { type FormEvent, useState } from "react";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { useAuth } from "../auth/auth-context.js";
import { nextPath } from "../auth/require-auth.js";
import { ErrorBanners, ShowPasswordToggle, TextField } from "../forms/fields.js";
import { type FieldErrors, validateLogin } from "../forms/validation.js";
import { usePageTitle } from "../layout/page-title.js";

export function LoginPage() {
  usePageTitle("Login");
  const { isAuthenticated, loading, errors, signIn } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [form, setForm] = useState({ email: "", password: "" });
  // Once a submit has shown errors, every change checks the form again: a fixed field loses its error at once.
  const [checked, setChecked] = useState(false);
  const fieldErrors: FieldErrors<"email" | "password"> = checked ? validateLogin(form) : {};
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);

  if (!loading && isAuthenticated && !busy) return <Navigate to={nextPath(location.search)} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(validateLogin(form)).length > 0) return;
    setBusy(true);
    const ok = await signIn({ email: form.email.trim(), password: form.password });
    setBusy(false);
    if (ok) navigate(nextPath(location.search), { replace: true });
  }

  return (
    <section className="auth-card">
      <h1>Login</h1>
      <ErrorBanners messages={errors} />
      <form onSubmit={submit} noValidate>
        <TextField
          label="Email"
          name="email"
          type="email"
          placeholder="Email"
          autoComplete="email"
          value={form.email}
          error={fieldErrors.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
        />
        <TextField
          label="Password"
          name="password"
          type={shown ? "text" : "password"}
          placeholder="Password"
          autoComplete="current-password"
          value={form.password}
          error={fieldErrors.password}
          onChange={(e) => setForm({ ...form, password: e.target.value })}
        />
        <ShowPasswordToggle shown={shown} onToggle={() => setShown((s) => !s)} />
        <button type="submit" className="primary" disabled={busy}>
          Signin
        </button>
      </form>
      <p>
        <Link to="/ui/register">Don't have an account? Sign up</Link>
      </p>
    </section>
  );
}
