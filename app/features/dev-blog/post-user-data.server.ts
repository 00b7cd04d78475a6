import type { UserDataHandler } from "~/features/auth/index.server";

/**
 * The developer blog's part in the account's data. Posts are written for the site, not kept for the author: on
 * deletion they stay and the database clears their author (ON DELETE SET NULL), and guests never write any, so
 * there is nothing to delete or move by hand; the copy of one's data lists the posts the account wrote.
 */
export const postUserData: UserDataHandler = {
  name: "posts",
  async exportUserData(db, userId) {
    return db
      .selectFrom("dev_blog_posts")
      .select(["id", "title", "summary", "status", "created_at as createdAt", "updated_at as updatedAt", "published_at as publishedAt"])
      .where("author_id", "=", userId)
      .orderBy("created_at")
      .execute();
  },
  deleteUserData: async () => {},
  moveUserData: async () => {},
};
