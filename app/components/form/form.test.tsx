import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Form, createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "~/lib/zod";
import { useForm } from "./form";

// A form whose buttons say what to do, like the developer blog's editor: 發表 asks for more than 儲存.
const schema = z
  .object({ title: z.string().min(1, "請輸入標題"), summary: z.string(), intent: z.string().optional() })
  .superRefine((post, ctx) => {
    if (post.intent === "publish" && !post.summary) ctx.addIssue({ code: "custom", path: ["summary"], message: "發表前請填寫摘要" });
  });

function Editor() {
  const form = useForm(schema);
  return (
    <Form method="post" onSubmit={form.onSubmit}>
      <input name="title" aria-label="標題" defaultValue="標題" />
      <input name="summary" aria-label="摘要" />
      <p role="alert">{form.errors.summary ?? form.errors.title}</p>
      <button type="submit" name="intent" value="save">
        儲存
      </button>
      <button type="submit" name="intent" value="publish">
        發表
      </button>
      <button type="submit" name="intent" value="preview" formNoValidate>
        預覽
      </button>
    </Form>
  );
}

function renderEditor() {
  const sent: Record<string, FormDataEntryValue>[] = [];
  const Stub = createRoutesStub([
    {
      path: "/edit",
      Component: Editor,
      action: async ({ request }) => {
        sent.push(Object.fromEntries(await request.formData()));
        return null;
      },
    },
  ]);
  render(<Stub initialEntries={["/edit"]} />);
  return sent;
}

describe("useForm", () => {
  it("checks the form with the pressed button's intent before it goes", async () => {
    const sent = renderEditor();
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "發表" }));
    expect(screen.getByRole("alert").textContent).toBe("發表前請填寫摘要");
    expect(sent).toEqual([]);
    await user.click(screen.getByRole("button", { name: "儲存" }));
    await waitFor(() => expect(sent).toEqual([{ title: "標題", summary: "", intent: "save" }]));
    expect(screen.getByRole("alert").textContent).toBe("");
  });

  it("sends a form unchecked from a button marked formNoValidate", async () => {
    const sent = renderEditor();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText("標題"));
    await user.click(screen.getByRole("button", { name: "儲存" }));
    expect(screen.getByRole("alert").textContent).toBe("請輸入標題");
    await user.click(screen.getByRole("button", { name: "預覽" }));
    await waitFor(() => expect(sent).toEqual([{ title: "", summary: "", intent: "preview" }]));
  });
});
