import { type ChangeEvent, useState } from "react";

/**
 * A form's values as typed, and the props that bind a field to one of them: its value, its change and
 * the API's 422 message for it (`errors`, by the parameter the API names; the value's name by default).
 */
export function useFields<V extends Record<string, unknown>>(initial: V | (() => V), errors: Record<string, string>) {
  const [values, setValues] = useState(initial);
  const set = <K extends keyof V>(key: K, value: V[K]) => setValues((was) => ({ ...was, [key]: value }));
  return {
    values,
    set,
    setValues,
    /** A text input: its value and its change event. */
    text: <K extends keyof V & string>(key: K, param: string = key) => ({
      value: values[key] as string,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
        set(key, event.currentTarget.value as V[K]),
      error: errors[param],
    }),
    /** A number, select or checkbox group: its value and the value it changes to. */
    value: <K extends keyof V & string>(key: K, param: string = key) => ({
      value: values[key],
      onChange: (value: V[K]) => set(key, value),
      error: errors[param],
    }),
  };
}
