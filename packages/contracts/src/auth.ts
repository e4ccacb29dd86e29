// Account schemas. Messages are the ones SPEC.md §5 spells; the UI and the server use these same texts.
import { z } from "zod";
import { MIN_PASSWORD_LENGTH, messages } from "./names.js";

const email = z
  .string({ error: messages.emailRequired })
  .trim()
  .min(1, messages.emailRequired)
  .pipe(z.email(messages.emailInvalid));
// An empty password is only "required"; the length rule speaks once something was typed.
const password = z
  .string({ error: messages.passwordRequired })
  .min(1, { error: messages.passwordRequired, abort: true })
  .min(MIN_PASSWORD_LENGTH, messages.passwordTooShort);

const isComparable = (v: { password?: unknown; Renewpassword?: unknown }) =>
  typeof v.password === "string" &&
  typeof v.Renewpassword === "string" &&
  v.password.length >= MIN_PASSWORD_LENGTH &&
  v.Renewpassword.length >= MIN_PASSWORD_LENGTH;

export const signupRequest = z
  .object({
    userName: z.string({ error: messages.userRequired }).trim().min(1, messages.userRequired).max(100),
    email,
    password,
    Renewpassword: password,
  })
  // Compared only when both are long enough, so one mistake does not show two messages.
  .refine((v) => !isComparable(v) || v.password === v.Renewpassword, {
    message: messages.passwordMismatch,
    path: ["Renewpassword"],
  });
export type SignupRequest = z.infer<typeof signupRequest>;

export const signinRequest = z.object({ email, password });
export type SigninRequest = z.infer<typeof signinRequest>;

/** What sign-in, sign-up and the session check answer with. */
export const sessionUser = z.object({ userName: z.string(), email: z.string() });
export type SessionUser = z.infer<typeof sessionUser>;

/** The session check answers with the user, or with an empty object when nobody is signed in. */
export const sessionResponse = sessionUser.partial();
export type SessionResponse = z.infer<typeof sessionResponse>;

/** Every failure is answered with a list of messages a person can read. */
export const errorResponse = z.object({ messages: z.array(z.string()) });
export type ErrorResponse = z.infer<typeof errorResponse>;
