import { Link } from "react-router";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";
import type { FamilyFacts } from "./console-types";

const roleNames = { owner: "擁有者", parent: "家長" } as const;

/** The family section of a parent's file: the family's name, its parents (each a link to their file), children and tablets. */
export function ParentFamily({ family, parentId }: { family: FamilyFacts | null; parentId: string }) {
  if (!family) return <p>這個帳號還沒有加入任何家庭。</p>;
  return (
    <>
      <p>
        家庭「{family.name}」，這個帳號的身分：{roleNames[family.role]}。
      </p>
      <h3>家長（{family.parents.length} 位）</h3>
      <ul>
        {family.parents.map((parent) => (
          <li key={parent.id}>
            {parent.id === parentId ? (
              <>
                {parent.name}（{parent.email}，{roleNames[parent.role]}，就是這個帳號）
              </>
            ) : (
              <>
                <Link to={`/admin/users/${encodeURIComponent(parent.id)}`}>{parent.email || parent.id}</Link>（{parent.name}，{roleNames[parent.role]}）
              </>
            )}
          </li>
        ))}
      </ul>
      <h3>孩子（{family.children.length} 位）</h3>
      {family.children.length ? <p>{family.children.join("、")}</p> : <p>還沒有孩子的資料。</p>}
      <h3>孩子的平板（{family.tablets.length} 台）</h3>
      {family.tablets.length ? (
        <ul>
          {family.tablets.map((tablet, index) => (
            <li key={index}>
              {tablet.appName}．由{tablet.approvedBy}允許．加入 <time dateTime={tablet.joinedAt}>{formatTaiwanDateTime(tablet.joinedAt)}</time>
            </li>
          ))}
        </ul>
      ) : (
        <p>沒有登入中的平板。</p>
      )}
    </>
  );
}
