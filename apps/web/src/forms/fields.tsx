// Labelled form fields with their error line, the password show/hide toggle, and the red error banners.
import { type InputHTMLAttributes, useId } from "react";

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
}

export function TextField({ label, error, id, ...input }: TextFieldProps) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div className="field">
      <label htmlFor={fieldId}>{label}</label>
      <input
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        {...input}
      />
      {error && (
        <p className="field-error" id={`${fieldId}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function ShowPasswordToggle({ shown, onToggle }: { shown: boolean; onToggle(): void }) {
  return (
    <button type="button" className="link-button" aria-pressed={shown} onClick={onToggle}>
      {shown ? "Hide password" : "Show password"}
    </button>
  );
}

export function ErrorBanners({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="banners">
      {messages.map((message) => (
        <div key={message} className="banner error" role="alert">
          {message}
        </div>
      ))}
    </div>
  );
}
