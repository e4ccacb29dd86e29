// Register (SPEC §2, §5): userName, email, password, Renewpassword; on success the user is sent to /ui/login.
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useAuth } from "../auth/auth-context.js";
import { ErrorBanners, ShowPasswordToggle, TextField } from "../forms/fields.js";
import { type FieldErrors, validateRegister } from "../forms/validation.js";
import { withNotice } from "../layout/flash-notice.js";
import { usePageTitle } from "../layout/page-title.js";

type Field = "userName" | "email" | "password" | "Renewpassword";

export function RegisterPage() {
  usePageTitle("Register");
  const { errors, signUp } = useAuth();
  const navigate = useNavigate();
  const [form, setForm] = useState<Record<Field, string>>({ userName: "", email: "", password: "", Renewpassword: "" });
  // Once a submit has shown errors, every change checks the form again: a fixed field loses its error at once.
  const [checked, setChecked] = useState(false);
  const fieldErrors: FieldErrors<Field> = checked ? validateRegister(form) : {};
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (field: Field) => (e: { target: { value: string } }) => setForm({ ...form, [field]: e.target.value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(validateRegister(form)).length > 0) return;
    setBusy(true);
    const ok = await signUp({ ...form, userName: form.userName.trim(), email: form.email.trim() });
    setBusy(false);
    if (ok) navigate("/ui/login", withNotice(`Account created for ${form.email.trim()}. Sign in to start.`));
  }

  return (
    <section className="auth-card">
      <h1>Register</h1>
      <ErrorBanners messages={errors} />
      <form onSubmit={submit} noValidate>
        <TextField
          label="User name"
          name="userName"
          placeholder="Your name"
          autoComplete="username"
          value={form.userName}
          error={fieldErrors.userName}
          onChange={set("userName")}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          placeholder="Email"
          autoComplete="email"
          value={form.email}
          error={fieldErrors.email}
          onChange={set("email")}
        />
        <TextField
          label="Password"
          name="password"
          type={shown ? "text" : "password"}
          placeholder="Password"
          autoComplete="new-password"
          value={form.password}
          error={fieldErrors.password}
          onChange={set("password")}
        />
        <ShowPasswordToggle shown={shown} onToggle={() => setShown((s) => !s)} />
        <TextField
          label="Repeat password"
          name="Renewpassword"
          type="password"
          placeholder="Repeat password"
          autoComplete="new-password"
          value={form.Renewpassword}
          error={fieldErrors.Renewpassword}
          onChange={set("Renewpassword")}
        />
        <button type="submit" className="primary" disabled={busy}>
          Sign up
        </button>
      </form>
      <p>
        <Link to="/ui/login">Already have an account? Sign in</Link>
      </p>
    </section>
  );
}
