import { fill, h } from "./dom";
import type { Session } from "./session";

interface Ingredient {
  icon?: string;
  name?: string;
  amount?: string;
}

interface Recipe {
  title?: string;
  skill_level?: string;
  cooking_time?: string;
  special_preferences?: string[];
  ingredients?: Ingredient[];
  instructions?: string[];
}

/**
 * The recipe card, bound to state.recipe. While the agent writes update_recipe's arguments the server streams
 * STATE_DELTAs and the card fills in field by field; between runs the user edits the title and the ingredients,
 * and the next run sends the edited state.
 */
export class RecipeView {
  readonly root: HTMLElement;
  private readonly titleInput: HTMLInputElement;
  private readonly meta: HTMLElement;
  private readonly ingredients: HTMLUListElement;
  private readonly instructions: HTMLOListElement;
  private readonly editable: HTMLFieldSetElement;
  private readonly addName: HTMLInputElement;
  private readonly addAmount: HTMLInputElement;
  private readonly addIcon: HTMLInputElement;
  private renderedKey = "";

  constructor(private readonly session: Session) {
    this.titleInput = h("input", {
      id: "recipe-title",
      class: "title-input",
      placeholder: "Untitled recipe",
      on: { input: () => this.edit({ title: this.titleInput.value }) },
    });
    this.meta = h("div", { class: "recipe-meta" });
    this.ingredients = h("ul", { class: "ingredients", attrs: { "aria-label": "Ingredients" } });
    this.instructions = h("ol", { class: "instructions", attrs: { "aria-label": "Instructions" } });
    this.addIcon = h("input", { id: "add-icon", class: "icon-input", value: "🥄", maxLength: 4 });
    this.addName = h("input", { id: "add-name", required: true, placeholder: "e.g. Lemon" });
    this.addAmount = h("input", { id: "add-amount", placeholder: "e.g. 1" });
    const addForm = h(
      "form",
      { class: "add-ingredient", on: { submit: (e) => (e.preventDefault(), this.addIngredient()) } },
      field("add-icon", "Icon", this.addIcon),
      field("add-name", "Ingredient", this.addName),
      field("add-amount", "Amount", this.addAmount),
      h("button", { type: "submit" }, "Add ingredient"),
    );
    this.editable = h(
      "fieldset",
      { class: "recipe-edit" },
      h("legend", { class: "visually-hidden" }, "Edit the recipe"),
      h("label", { htmlFor: "recipe-title", class: "visually-hidden" }, "Recipe title"),
      this.titleInput,
      this.meta,
      h("h3", {}, "Ingredients"),
      this.ingredients,
      addForm,
    );
    this.root = h(
      "section",
      { id: "recipe-card", class: "panel card recipe", attrs: { "aria-labelledby": "recipe-heading" } },
      h("h2", { id: "recipe-heading", class: "visually-hidden" }, "Recipe"),
      this.editable,
      h("h3", {}, "Instructions"),
      this.instructions,
    );
  }

  render(): void {
    const recipe = this.recipe();
    const running = this.session.running;
    const key = JSON.stringify([recipe, running]);
    if (key === this.renderedKey) return;
    this.renderedKey = key;
    this.root.setAttribute("aria-busy", String(running));
    this.editable.disabled = running;
    if (document.activeElement !== this.titleInput || running) this.titleInput.value = recipe.title ?? "";

    fill(
      this.meta,
      recipe.skill_level && badge("Skill", recipe.skill_level),
      recipe.cooking_time && badge("Time", recipe.cooking_time),
      ...(recipe.special_preferences ?? []).map((p) => h("span", { class: "chip static" }, p)),
    );

    const focusedRemove = this.ingredients.contains(document.activeElement);
    const items = recipe.ingredients ?? [];
    fill(
      this.ingredients,
      ...items.map((item, index) =>
        h(
          "li",
          {},
          h("span", { class: "icon", attrs: { "aria-hidden": "true" } }, item.icon ?? "•"),
          h("span", { class: "name" }, item.name ?? ""),
          h("span", { class: "amount" }, item.amount ?? ""),
          h(
            "button",
            {
              type: "button",
              class: "remove",
              attrs: { "aria-label": `Remove ${item.name ?? "ingredient"}` },
              on: { click: () => this.removeIngredient(index) },
            },
            "×",
          ),
        ),
      ),
    );
    if (items.length === 0) this.ingredients.append(h("li", { class: "empty" }, "No ingredients yet."));
    if (focusedRemove) this.addName.focus();

    const steps = recipe.instructions ?? [];
    fill(this.instructions, ...steps.map((step) => h("li", {}, step)));
    if (steps.length === 0) this.instructions.append(h("li", { class: "empty" }, "Ask for a recipe and watch it being written."));
  }

  private recipe(): Recipe {
    const value = this.session.state.recipe;
    return value && typeof value === "object" ? (value as Recipe) : {};
  }

  private edit(change: Partial<Recipe>): void {
    this.session.setState({ ...this.session.state, recipe: { ...this.recipe(), ...change } });
  }

  private addIngredient(): void {
    const name = this.addName.value.trim();
    if (name === "") return;
    const item: Ingredient = { icon: this.addIcon.value.trim() || "🥄", name, amount: this.addAmount.value.trim() };
    this.edit({ ingredients: [...(this.recipe().ingredients ?? []), item] });
    this.addName.value = "";
    this.addAmount.value = "";
    this.addName.focus();
  }

  private removeIngredient(index: number): void {
    this.edit({ ingredients: (this.recipe().ingredients ?? []).filter((_, i) => i !== index) });
  }
}

function field(id: string, label: string, input: HTMLInputElement): HTMLElement {
  return h("div", { class: "field" }, h("label", { htmlFor: id }, label), input);
}

function badge(label: string, value: string): HTMLElement {
  return h("span", { class: "badge" }, h("span", { class: "badge-label" }, `${label}: `), value);
}
