import { useEffect } from "react";
import { Form } from "react-router";
import { Field, FormNotice, SubmitButton, useForm } from "~/components/form/form";
import { displayNameSchema } from "./account-forms";
import { AccountFormAlert } from "./recent-sign-in-alert";
import { ProfilePhotoForm } from "./profile-photo-form";

interface ProfileSectionProps {
  displayName: string;
  passkeyAccount: { userId: string; name: string };
  photoURL: string | null;
  returnTo: string;
}

/** 個人資料: the display name (the sign-up rules) and the profile photo. */
export function ProfileSection({ displayName, passkeyAccount, photoURL, returnTo }: ProfileSectionProps) {
  const form = useForm(displayNameSchema, "update-name");
  const { done, notice } = form.outcome ?? {};
  const { userId, name } = passkeyAccount;
  // A new display name goes to the browser too, so the passkeys saved for this account show it (passkey-signals.ts).
  useEffect(() => {
    if (done) void import("./passkey-signals").then(({ signalAccountDetails }) => signalAccountDetails({ userId, name, displayName }));
  }, [done, userId, name, displayName]);
  return (
    <section className="page-section" aria-labelledby="profile">
      <h2 id="profile">個人資料</h2>
      <ProfilePhotoForm photoURL={photoURL} name={displayName} />
      <Form method="post" className="card auth-form account-form" onSubmit={form.onSubmit} noValidate>
        <input type="hidden" name="intent" value="update-name" />
        <FormNotice message={done && !form.pending ? (notice ?? null) : null} />
        <AccountFormAlert outcome={form.outcome} returnTo={returnTo} />
        <Field name="displayName" label="顯示名稱" autoComplete="nickname" required maxLength={100}
          defaultValue={form.outcome?.values?.displayName ?? displayName} error={form.errors.displayName}
          hint={<p className="field__hint">孩子和其他家人會看到這個名稱，最多 100 個字元。</p>} />
        <SubmitButton pending={form.pending} label="儲存顯示名稱" pendingLabel="儲存中…" />
      </Form>
    </section>
  );
}
