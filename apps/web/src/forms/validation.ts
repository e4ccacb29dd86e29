// Client-side checks of the sign-in and register forms, with SPEC §5's messages (shared with the server via contracts).
import { MIN_PASSWORD_LENGTH, messages } from "@tracemill/contracts/names";

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function emailError(email: string): string | undefined {
  if (!email.trim()) return messages.emailRequired;
  if (!EMAIL_SHAPE.test(email.trim())) return messages.emailInvalid;
  return undefined;
}

function passwordError(password: string): string | undefined {
  if (!password) return messages.passwordRequired;
  if (password.length < MIN_PASSWORD_LENGTH) return messages.passwordTooShort;
  return undefined;
}

function compact<K extends string>(errors: Record<K, string | undefined>): FieldErrors<K> {
  return Object.fromEntries(Object.entries(errors).filter(([, v]) => v)) as FieldErrors<K>;
}

export function validateLogin(form: { email: string; password: string }): FieldErrors<"email" | "password"> {
  return compact({ email: emailError(form.email), password: passwordError(form.password) });
}

export function validateRegister(form: {
  userName: string;
  email: string;
  password: string;
  Renewpassword: string;
}): FieldErrors<"userName" | "email" | "password" | "Renewpassword"> {
  const password = passwordError(form.password);
  let repeat = passwordError(form.Renewpassword);
  // Compared only when both are long enough, as the server does, so one mistake shows one message.
  if (!password && !repeat && form.Renewpassword !== form.password) repeat = messages.passwordMismatch;
  return compact({
    userName: form.userName.trim() ? undefined : messages.userRequired,
    email: emailError(form.email),
    password,
    Renewpassword: repeat,
  });
}
