import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useEffect, useState } from "react";
import { passwordReady } from "./passwordRules";

/** What a page's mutation sends for a link: its token and the new password. */
export interface LinkBody {
  token: string;
  password: string;
}

/**
 * A page opened by a link that sets a password (`/invite#<token>`, `/reset-password#<token>`): the token
 * is the fragment, never sent to a server in a URL, read once and then taken out of the address bar so
 * that it does not stay in the browser's history. The form holds the new password and its confirmation;
 * a submit sends them only when the rules are met, and a success opens the home page, signed in.
 */
export function usePasswordLink(send: (body: LinkBody, after: { onSuccess: () => void }) => void) {
  const [token] = useState(() => decodeURIComponent(window.location.hash.slice(1)));
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [submitted, setSubmitted] = useState(false);

  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, "", window.location.pathname);
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (passwordReady(password, confirm)) send({ token, password }, { onSuccess: () => navigate({ to: "/" }) });
  };

  return { token, password, confirm, setPassword, setConfirm, submitted, submit };
}
