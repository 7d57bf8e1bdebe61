import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/react-i18n";
import { Card, CardContent, CardHeader } from "~/components/ui/card";

/** The groups a contact belongs to, each a link to the group's page. */
export function ContactGroupsCard({ groups }: { groups: Array<{ id: string; name: string }> }) {
  const { t } = useTranslation("contacts");
  return (
    <Card>
      <CardHeader>
        <h2 className="leading-none font-semibold">{t("fields.groups")}</h2>
      </CardHeader>
      <CardContent className="text-sm">
        {groups.length ? (
          <ul className="flex flex-wrap gap-2">
            {groups.map((g) => (
              <li key={g.id}>
                <Link to={`/contacts/groups/${g.id}`} className="rounded-md border px-2 py-1 hover:bg-accent">
                  {g.name}
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted-foreground">{t("detail.noGroups")}</p>
        )}
      </CardContent>
    </Card>
  );
}
