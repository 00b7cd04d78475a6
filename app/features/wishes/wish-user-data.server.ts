import type { UserDataHandler } from "~/features/auth/index.server";
import { deleteWishData, exportWishData, moveWishData } from "./wishes.server";

/** The wishing well's part in account deletion, in a guest's sign-in to an existing account, and in the copy of one's data. */
export const wishUserData: UserDataHandler = {
  name: "wishes",
  exportUserData: exportWishData,
  deleteUserData: deleteWishData,
  moveUserData: moveWishData,
};
