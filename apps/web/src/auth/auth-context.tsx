// Who is signed in (SPEC §4): the session check on start, sign-in, sign-up, sign-out, and error banners that clear after 5 s.
import { messages, type SessionUser, type SigninRequest, type SignupRequest } from "@tracemill/contracts";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { api, messagesOf } from "../api/client.js";

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

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SessionUser | null>(null);
  const [loading, setLoading] = useState(true);
  const [errors, setErrorsState] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const setErrors = useCallback((list: string[]) => {
    clearTimeout(timer.current);
    setErrorsState(list);
    if (list.length > 0) timer.current = setTimeout(() => setErrorsState([]), ERROR_TIMEOUT_MS);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    let live = true;
    api
      .session()
      .then((answer) => {
        if (!live) return;
        setUser(answer?.userName ? { userName: answer.userName, email: answer.email ?? "" } : null);
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
  }, [setErrors]);

  const signIn = useCallback(
    async (request: SigninRequest) => {
      try {
        const answer = await api.login(request);
        if (!answer?.userName) {
          setUser(null);
          setErrors([messages.noLogin]);
          return false;
        }
        setUser({ userName: answer.userName, email: answer.email ?? request.email });
        setErrors([]);
        return true;
      } catch (error) {
        setUser(null);
        setErrors(messagesOf(error));
        return false;
      }
    },
    [setErrors],
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
      setUser(null);
    }
  }, []);

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
