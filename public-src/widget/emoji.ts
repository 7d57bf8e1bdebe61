/** The emoji picker's categories (spec section 9: People, Nature, Objects, Places, Symbols). */
export const EMOJI: Array<[key: "people" | "nature" | "objects" | "places" | "symbols", list: string]> = [
  ["people", "😀 😃 😄 😁 😆 😅 😂 🙂 😉 😊 😇 😍 😘 😋 😜 🤔 😐 😴 😎 🤓 😕 😟 😢 😭 😡 👍 👎 👏 🙏 👋 🤝 💪"],
  ["nature", "🐶 🐱 🐭 🐰 🦊 🐻 🐼 🐨 🐯 🦁 🐮 🐷 🐸 🐵 🐔 🐧 🐦 🦋 🐝 🌵 🌲 🌴 🌱 🍀 🌹 🌻 🌞 🌙 ⭐ ☁️ 🌈 ⚡"],
  ["objects", "⌚ 📱 💻 ⌨️ 🖨️ 📷 📞 📺 📻 ⏰ 💡 🔦 📚 📖 📝 ✏️ 📎 📌 ✂️ 🔒 🔑 🔨 🎁 🎈 🎉 💰 💳 ✉️ 📦 🛒"],
  ["places", "🏠 🏡 🏢 🏬 🏥 🏦 🏨 🏪 🏫 ⛪ 🏰 🗽 🗼 ⛲ 🏖️ 🏝️ 🏔️ 🌋 🗻 🏕️ 🚗 🚕 🚌 🚑 🚒 🚲 ✈️ 🚀 🚢 ⛵"],
  ["symbols", "❤️ 🧡 💛 💚 💙 💜 🖤 💔 ❣️ 💕 💯 ✅ ❌ ❓ ❗ ⚠️ ♻️ ➕ ➖ ➡️ ⬅️ ⬆️ ⬇️ 🔔 🔕 💬 🕐 ©️ ®️ ™️"],
];
