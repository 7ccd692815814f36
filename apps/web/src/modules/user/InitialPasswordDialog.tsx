import { PasswordDialog } from './PasswordDialog';

/** The change-password dialog that cannot be dismissed: shown while an issued password is still in use (U23). */
export default function InitialPasswordDialog() {
  return <PasswordDialog open required onClose={() => undefined} />;
}
