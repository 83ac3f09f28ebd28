/// The document the human mode starts on when it is given no files.
public enum Sample {
  /// Storages in order: a title, a body in several scripts with emoji and a
  /// CR LF paragraph, and a code block excluded from Writing Tools.
  public static let storages: [(name: String, text: String, excluded: Bool)] = [
    ("title", "A travel journal\n", false),
    (
      "body",
      "We left Lisbon at dawn; the sea was calm and teh sky was clear.\n"
        + "Στην Αθήνα φάγαμε σουβλάκι και είδαμε την Ακρόπολη.\n"
        + "東京では桜が満開でした。🌸\n"
        + "The whole family came along 👨‍👩‍👧‍👦 and we waved the flag 🇵🇹 at every port.\r\n"
        + "Café au lait, naïve questions and a résumé of the day.\u{2029}"
        + "Next stop: Reykjavík.\n",
      false
    ),
    ("code", "let route = [\"Lisbon\", \"Athens\", \"Tokyo\"]\nprint(route)\n", true),
  ]
}
