/**
 * Ready flows for /flows/templates (issue 20): real definitions that pass checkFlow, each a
 * starting point the account edits. Names and descriptions are locale keys (flows:templates.<id>);
 * the texts inside a definition are written in the language the flow is created in (the request's
 * locale), pt-BR by default. Read-only: nothing here touches the database.
 */
import type { DraftDefinition } from "./definition";
import { FLOW_TEMPLATE_IDS, type FlowTemplateId } from "./template-ids";

export { FLOW_TEMPLATE_IDS, type FlowTemplateId };

type Lang = "pt-BR" | "en" | "es" | "zh";
type Texts = Record<Lang, string>;

const LANGS: readonly Lang[] = ["pt-BR", "en", "es", "zh"];
const langOf = (locale: string | undefined): Lang => ((LANGS as readonly string[]).includes(locale ?? "") ? (locale as Lang) : "pt-BR");

/** Each template's texts, per language (a button's text at most 20 characters). */
const TEXTS = {
  greet: { "pt-BR": "Olá! Que bom ter você por aqui.", en: "Hi! Glad to have you here.", es: "¡Hola! Qué bueno tenerte aquí.", zh: "您好！很高兴为您服务。" },
  howHelp: { "pt-BR": "Como podemos ajudar?", en: "How can we help?", es: "¿Cómo podemos ayudar?", zh: "我们能为您做些什么？" },
  hours: { "pt-BR": "Horários", en: "Opening hours", es: "Horarios", zh: "营业时间" },
  person: { "pt-BR": "Falar com uma pessoa", en: "Talk to a person", es: "Hablar con alguien", zh: "人工服务" },
  hoursAnswer: {
    "pt-BR": "Atendemos de segunda a sexta, das 8h às 18h.",
    en: "We are open Monday to Friday, 8 am to 6 pm.",
    es: "Atendemos de lunes a viernes, de 8 a 18 h.",
    zh: "我们的服务时间为周一至周五 8:00–18:00。",
  },
  wait: {
    "pt-BR": "Um momento, vamos chamar alguém da equipe.",
    en: "One moment, we are calling someone from the team.",
    es: "Un momento, llamamos a alguien del equipo.",
    zh: "请稍候，我们正在为您转接客服。",
  },
  bye: { "pt-BR": "Obrigado pelo contato!", en: "Thanks for reaching out!", es: "¡Gracias por contactarnos!", zh: "感谢您的联系！" },
  faqAsk: { "pt-BR": "Sobre o que é a sua dúvida?", en: "What is your question about?", es: "¿Sobre qué es tu duda?", zh: "您想咨询哪方面的问题？" },
  delivery: { "pt-BR": "Prazo de entrega", en: "Delivery time", es: "Plazo de entrega", zh: "配送时间" },
  returns: { "pt-BR": "Trocas", en: "Returns", es: "Cambios", zh: "退换货" },
  payment: { "pt-BR": "Pagamento", en: "Payment", es: "Pago", zh: "付款方式" },
  deliveryAnswer: {
    "pt-BR": "Entregamos em até 5 dias úteis nas capitais.",
    en: "We deliver within 5 business days in state capitals.",
    es: "Entregamos en hasta 5 días hábiles en las capitales.",
    zh: "省会城市 5 个工作日内送达。",
  },
  returnsAnswer: {
    "pt-BR": "Você pode trocar em até 30 dias com a nota fiscal.",
    en: "You can return items within 30 days with the receipt.",
    es: "Puedes cambiar en hasta 30 días con la factura.",
    zh: "凭发票可在 30 天内退换货。",
  },
  paymentAnswer: {
    "pt-BR": "Aceitamos Pix, boleto e cartão em até 10 vezes.",
    en: "We take Pix, bank slip and card in up to 10 instalments.",
    es: "Aceptamos Pix, boleto y tarjeta en hasta 10 cuotas.",
    zh: "支持 Pix、银行票据和信用卡（最多 10 期）。",
  },
  leadIntro: {
    "pt-BR": "Vamos fazer seu cadastro, leva um minuto.",
    en: "Let's sign you up, it takes a minute.",
    es: "Hagamos tu registro, toma un minuto.",
    zh: "我们来登记一下您的信息，只需一分钟。",
  },
  askName: { "pt-BR": "Qual é o seu nome?", en: "What is your name?", es: "¿Cuál es tu nombre?", zh: "请问您的名字是？" },
  askEmail: { "pt-BR": "Qual é o seu e-mail?", en: "What is your e-mail?", es: "¿Cuál es tu correo electrónico?", zh: "请问您的电子邮箱是？" },
  askPhone: { "pt-BR": "E o seu telefone com DDD?", en: "And your phone number with area code?", es: "¿Y tu teléfono con código de área?", zh: "请提供您的电话号码（含区号）。" },
  retry: { "pt-BR": "Não entendi, pode repetir?", en: "Sorry, could you say that again?", es: "No entendí, ¿puedes repetir?", zh: "抱歉，没听清，请再说一遍。" },
  leadThanks: {
    "pt-BR": "Obrigado, {{first_name}}! Em breve entraremos em contato.",
    en: "Thank you, {{first_name}}! We will be in touch soon.",
    es: "¡Gracias, {{first_name}}! Pronto te contactaremos.",
    zh: "谢谢，{{first_name}}！我们会尽快与您联系。",
  },
  askCpf: { "pt-BR": "Informe o CPF usado na compra.", en: "Please send the CPF used for the purchase.", es: "Indica el CPF usado en la compra.", zh: "请提供购买时使用的 CPF。" },
  orderStatus: {
    "pt-BR": "Seu pedido está: {{order_status}}.",
    en: "Your order is: {{order_status}}.",
    es: "Tu pedido está: {{order_status}}.",
    zh: "您的订单状态：{{order_status}}。",
  },
  orderError: {
    "pt-BR": "Não consegui consultar seu pedido agora. Vou chamar alguém da equipe.",
    en: "I could not look up your order now. I will call someone from the team.",
    es: "No pude consultar tu pedido ahora. Llamaré a alguien del equipo.",
    zh: "暂时无法查询您的订单，正在为您转接客服。",
  },
  open: {
    "pt-BR": "Estamos abertos! Já vamos te atender.",
    en: "We are open! Someone will answer you shortly.",
    es: "¡Estamos abiertos! Ya te atendemos.",
    zh: "我们正在营业！马上为您服务。",
  },
  closed: {
    "pt-BR": "Estamos fechados agora. Atendemos de segunda a sexta, das 8h às 18h.",
    en: "We are closed now. We are open Monday to Friday, 8 am to 6 pm.",
    es: "Ahora estamos cerrados. Atendemos de lunes a viernes, de 8 a 18 h.",
    zh: "我们现在已下班。服务时间为周一至周五 8:00–18:00。",
  },
} satisfies Record<string, Texts>;

type Key = keyof typeof TEXTS;
type Node = DraftDefinition["nodes"][number];

/** A node at grid cell (col, row). */
const at = (col: number, row: number) => ({ x: col * 280, y: row * 140 });

function build(id: FlowTemplateId, t: (k: Key) => string): { nodes: Node[]; edges: Array<[string, string, string]> } {
  switch (id) {
    case "welcome":
      return {
        nodes: [
          { id: "start", type: "start", position: at(1, 0), data: {} },
          { id: "greet", type: "message", position: at(1, 1), data: { text: t("greet") } },
          {
            id: "menu",
            type: "question",
            position: at(1, 2),
            data: { text: t("howHelp"), check: "choice", choices: [t("hours"), t("person")], store: { kind: "variable", name: "option" }, retry_message: t("retry"), retries: 2 },
          },
          { id: "branch", type: "condition", position: at(1, 3), data: { rules: [{ id: "person", subject: "variable", name: "option", op: "equals", value: t("person") }] } },
          { id: "agent", type: "handoff", position: at(0, 4), data: { message: t("wait") } },
          { id: "hours", type: "message", position: at(2, 4), data: { text: t("hoursAnswer") } },
          { id: "end", type: "end", position: at(2, 5), data: { message: t("bye") } },
        ],
        edges: [
          ["start", "next", "greet"],
          ["greet", "next", "menu"],
          ["menu", "answer", "branch"],
          ["menu", "invalid", "agent"],
          ["branch", "person", "agent"],
          ["branch", "else", "hours"],
          ["hours", "next", "end"],
        ],
      };
    case "faq":
      return {
        nodes: [
          { id: "start", type: "start", position: at(1.5, 0), data: {} },
          {
            id: "topic",
            type: "question",
            position: at(1.5, 1),
            data: {
              text: t("faqAsk"),
              check: "choice",
              choices: [t("delivery"), t("returns"), t("payment"), t("person")],
              store: { kind: "variable", name: "topic" },
              retry_message: t("retry"),
              retries: 2,
            },
          },
          {
            id: "branch",
            type: "condition",
            position: at(1.5, 2),
            data: {
              rules: [
                { id: "delivery", subject: "variable", name: "topic", op: "equals", value: t("delivery") },
                { id: "returns", subject: "variable", name: "topic", op: "equals", value: t("returns") },
                { id: "payment", subject: "variable", name: "topic", op: "equals", value: t("payment") },
              ],
            },
          },
          { id: "delivery", type: "message", position: at(0, 3), data: { text: t("deliveryAnswer") } },
          { id: "returns", type: "message", position: at(1, 3), data: { text: t("returnsAnswer") } },
          { id: "payment", type: "message", position: at(2, 3), data: { text: t("paymentAnswer") } },
          { id: "agent", type: "handoff", position: at(3, 3), data: { message: t("wait") } },
          { id: "end", type: "end", position: at(1, 4), data: { message: t("bye") } },
        ],
        edges: [
          ["start", "next", "topic"],
          ["topic", "answer", "branch"],
          ["topic", "invalid", "agent"],
          ["branch", "delivery", "delivery"],
          ["branch", "returns", "returns"],
          ["branch", "payment", "payment"],
          ["branch", "else", "agent"],
          ["delivery", "next", "end"],
          ["returns", "next", "end"],
          ["payment", "next", "end"],
        ],
      };
    case "lead": {
      const ask = (text: Key, check: string, field: string) => ({ text: t(text), check, store: { kind: "field", name: field }, retry_message: t("retry"), retries: 2 });
      return {
        nodes: [
          { id: "start", type: "start", position: at(0, 0), data: {} },
          { id: "intro", type: "message", position: at(0, 1), data: { text: t("leadIntro") } },
          { id: "name", type: "question", position: at(0, 2), data: ask("askName", "text", "first_name") },
          { id: "email", type: "question", position: at(0, 3), data: ask("askEmail", "email", "email") },
          { id: "phone", type: "question", position: at(0, 4), data: ask("askPhone", "phone", "phone") },
          { id: "tag", type: "action", position: at(0, 5), data: { kind: "add_tag", name: "lead" } },
          { id: "thanks", type: "message", position: at(0, 6), data: { text: t("leadThanks") } },
          { id: "end", type: "end", position: at(0, 7), data: {} },
        ],
        edges: [
          ["start", "next", "intro"],
          ["intro", "next", "name"],
          ["name", "answer", "email"],
          ["email", "answer", "phone"],
          ["phone", "answer", "tag"],
          ["tag", "next", "thanks"],
          ["thanks", "next", "end"],
        ],
      };
    }
    case "order_status":
      return {
        nodes: [
          { id: "start", type: "start", position: at(0.5, 0), data: {} },
          {
            id: "cpf",
            type: "question",
            position: at(0.5, 1),
            data: { text: t("askCpf"), check: "cpf", store: { kind: "variable", name: "cpf" }, retry_message: t("retry"), retries: 2 },
          },
          {
            id: "lookup",
            type: "http",
            position: at(0.5, 2),
            data: { method: "GET", url: "https://api.example.com/orders?cpf={{cpf}}", timeout_ms: 5000, map: [{ path: "status", variable: "order_status" }] },
          },
          { id: "status", type: "message", position: at(0, 3), data: { text: t("orderStatus") } },
          { id: "end", type: "end", position: at(0, 4), data: { message: t("bye") } },
          { id: "failed", type: "message", position: at(1, 3), data: { text: t("orderError") } },
          { id: "agent", type: "handoff", position: at(1, 4), data: {} },
        ],
        edges: [
          ["start", "next", "cpf"],
          ["cpf", "answer", "lookup"],
          ["cpf", "invalid", "agent"],
          ["lookup", "success", "status"],
          ["lookup", "error", "failed"],
          ["status", "next", "end"],
          ["failed", "next", "agent"],
        ],
      };
    case "opening_hours":
      return {
        nodes: [
          { id: "start", type: "start", position: at(0.5, 0), data: {} },
          { id: "hours", type: "condition", position: at(0.5, 1), data: { rules: [{ id: "open", subject: "opening_hours", op: "open" }] } },
          { id: "open", type: "message", position: at(0, 2), data: { text: t("open") } },
          { id: "agent", type: "handoff", position: at(0, 3), data: {} },
          { id: "closed", type: "message", position: at(1, 2), data: { text: t("closed") } },
          { id: "end", type: "end", position: at(1, 3), data: {} },
        ],
        edges: [
          ["start", "next", "hours"],
          ["hours", "open", "open"],
          ["hours", "else", "closed"],
          ["open", "next", "agent"],
          ["closed", "next", "end"],
        ],
      };
  }
}

export function isFlowTemplate(id: unknown): id is FlowTemplateId {
  return typeof id === "string" && (FLOW_TEMPLATE_IDS as readonly string[]).includes(id);
}

/** The template's definition with its texts in `locale` (pt-BR for any other). */
export function flowTemplate(id: FlowTemplateId, locale?: string): DraftDefinition {
  const lang = langOf(locale);
  const { nodes, edges } = build(id, (k) => TEXTS[k][lang]);
  return { nodes, edges: edges.map(([source, output, target], i) => ({ id: `e${i + 1}`, source, output, target })) };
}

/** The gallery: each template with its step count and the step types it uses (names and descriptions are locale keys). */
export function flowTemplates() {
  return FLOW_TEMPLATE_IDS.map((id) => {
    const d = flowTemplate(id);
    return { id, steps: d.nodes.length, types: [...new Set(d.nodes.map((n) => n.type))] };
  });
}
