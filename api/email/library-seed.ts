/**
 * The platform's template library (ADR 037): a few ready MJML starting points every account sees
 * at /mail/templates (seeded by ensurePlatformEmailLibrary, ./libs.ts). In Portuguese, the
 * platform's default language; each uses {{variables}} the contacts give.
 */
export type LibrarySeed = { name: string; description: string; subject: string; mjml: string; text: string | null };

const frame = (body: string, preview: string) => `<mjml>
  <mj-head>
    <mj-title>{{company}}</mj-title>
    <mj-preview>${preview}</mj-preview>
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="16px" line-height="24px" color="#1f2937" />
      <mj-button background-color="#2563eb" color="#ffffff" font-size="16px" border-radius="6px" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f4f6">
${body}
    <mj-section>
      <mj-column>
        <mj-text font-size="12px" color="#6b7280" align="center">Você recebeu este e-mail porque é cliente da {{company}}.</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

export const PLATFORM_LIBRARY: LibrarySeed[] = [
  {
    name: "Boas-vindas",
    description: "Uma mensagem de boas-vindas com um botão de chamada.",
    subject: "Bem-vindo(a), {{first_name}}!",
    mjml: frame(
      `    <mj-section background-color="#ffffff" padding="32px 24px">
      <mj-column>
        <mj-text font-size="24px" font-weight="bold">Olá, {{first_name}}!</mj-text>
        <mj-text>Que bom ter você com a gente. A partir de agora você recebe nossas novidades em primeira mão.</mj-text>
        <mj-button href="https://example.com">Conhecer a loja</mj-button>
      </mj-column>
    </mj-section>`,
      "Que bom ter você com a gente",
    ),
    text: "Olá, {{first_name}}! Que bom ter você com a gente.",
  },
  {
    name: "Promoção",
    description: "Uma oferta com imagem, duas colunas e um cupom.",
    subject: "{{first_name}}, uma oferta só para você",
    mjml: frame(
      `    <mj-section background-color="#2563eb" padding="24px">
      <mj-column>
        <mj-text color="#ffffff" font-size="28px" font-weight="bold" align="center">20% de desconto</mj-text>
        <mj-text color="#ffffff" align="center">Só até domingo, {{first_name}}.</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="24px">
      <mj-column>
        <mj-text font-weight="bold">Para a casa</mj-text>
        <mj-text>Tudo para deixar sua casa do seu jeito.</mj-text>
      </mj-column>
      <mj-column>
        <mj-text font-weight="bold">Para você</mj-text>
        <mj-text>Roupas e acessórios da nova coleção.</mj-text>
      </mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="0 24px 24px">
      <mj-column>
        <mj-text align="center">Use o cupom <strong>PROMO20</strong></mj-text>
        <mj-button href="https://example.com/promo">Aproveitar</mj-button>
      </mj-column>
    </mj-section>`,
      "20% de desconto só até domingo",
    ),
    text: "{{first_name}}, 20% de desconto só até domingo com o cupom PROMO20.",
  },
  {
    name: "Confirmação de pedido",
    description: "Um e-mail transacional com o resumo de um pedido.",
    subject: "Pedido {{order_id}} confirmado",
    mjml: frame(
      `    <mj-section background-color="#ffffff" padding="32px 24px">
      <mj-column>
        <mj-text font-size="22px" font-weight="bold">Obrigado pela compra, {{first_name}}!</mj-text>
        <mj-text>Seu pedido <strong>{{order_id}}</strong> foi confirmado e já está sendo preparado.</mj-text>
        <mj-divider border-color="#e5e7eb" />
        <mj-text>Você receberá outro e-mail quando ele for enviado.</mj-text>
      </mj-column>
    </mj-section>`,
      "Seu pedido foi confirmado",
    ),
    text: "Obrigado pela compra, {{first_name}}! Seu pedido {{order_id}} foi confirmado.",
  },
];
