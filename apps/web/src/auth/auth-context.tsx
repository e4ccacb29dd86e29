// Who is signed in (SPEC §4): the session check on start, sign-in, sign-up, sign-out, and error banners that clear after 5 s.

import { useQueryClient } from "@tanstack/react-query";
import type { SessionUser, SigninRequest, SignupRequest } from "@tracemill/contracts";
import { messages } from "@tracemill/contracts/names";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { api, type MaybeUser, messagesOf } from "../api/client.js";

export const ERROR_TIMEOUT_MS = 5000;

export interface AuthState {
  user: SessionUser | null;
  isAuthenticated: boolean;
  loading: boolean;
  errors: string[];
  signIn(request: SigninRequest): Promise<boolean>;
  signUp(request: SignupRequest): Promise<boolean>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

/**
 * The session check main.tsx sent before React started, so it travels while the script runs; `user` is its answer
 * when that came before the first render, which then draws the page rather than "Loading…".
 */
export interface FirstSession {
  answer: Promise<MaybeUser>;
  user?: SessionUser | null;
}

/** Who an answer of the session check names, if anyone. */
export const userOf = (answer: MaybeUser): SessionUser | null =>
  answer?.userName ? { userName: answer.userName, email: answer.email ?? "" } : null;

export function AuthProvider({ children, firstSession }: { children: ReactNode; firstSession?: FirstSession }) {
  const known = firstSession?.user !== undefined;
  const [user, setUser] = useState<SessionUser | null>(firstSession?.user ?? null);
  const [loading, setLoading] = useState(!known);
  const [errors, setErrorsState] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Whoever signs in or out next must not see the answers kept for the one before (their jobs, files, profile).
  const queryClient = useQueryClient();
  const forgetAnswers = useCallback(() => queryClient.resetQueries(), [queryClient]);

  const setErrors = useCallback((list: string[]) => {
    clearTimeout(timer.current);
    setErrorsState(list);
    if (list.length > 0) timer.current = setTimeout(() => setErrorsState([]), ERROR_TIMEOUT_MS);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    if (known) return;
    let live = true;
    (firstSession?.answer ?? api.session())
      .then((answer) => {
        if (!live) return;
        setUser(userOf(answer));
      })
      .catch((error) => {
        if (!live) return;
        setUser(null);
        setErrors(messagesOf(error));
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [setErrors, known, firstSession]);

  const signIn = useCallback(
    async (request: SigninRequest) => {
      try {
        const answer = await api.login(request);
        if (!answer?.userName) {
          setUser(null);
          setErrors([messages.noLogin]);
          return false;
        }
        void forgetAnswers();
        setUser({ userName: answer.userName, email: answer.email ?? request.email });
        setErrors([]);
        return true;
      } catch (error) {
        setUser(null);
        setErrors(messagesOf(error));
        return false;
      }
    },
    [setErrors, forgetAnswers],
  );

  const signUp = useCallback(
    async (request: SignupRequest) => {
      try {
        await api.register(request);
        setErrors([]);
        return true;
      } catch (error) {
        setErrors(messagesOf(error));
        return false;
      }
    },
    [setErrors],
  );

  const signOut = useCallback(async () => {
    try {
      await api.logout();
    } finally {
      void forgetAnswers();
      setUser(null);
    }
  }, [forgetAnswers]);

  const value = useMemo<AuthState>(
    () => ({ user, isAuthenticated: user !== null, loading, errors, signIn, signUp, signOut }),
    [user, loading, errors, signIn, signUp, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error("useAuth outside AuthProvider");
  return state;
}
