import type { UserDataHandler } from "~/features/auth/user-data-hooks.server";
import { deleteWishData, moveWishData } from "./wishes.server";

/** The wishing well's part in account deletion and in a guest's sign-in to an existing account. */
export const wishUserData: UserDataHandler = {
  name: "wishes",
  deleteUserData: deleteWishData,
  moveUserData: moveWishData,
};
