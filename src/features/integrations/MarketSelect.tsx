import { Button, Menu, MenuDivider, MenuItem } from '@blueprintjs/core';
import { type ItemListRenderer, type ItemPredicate, type ItemRenderer, Select } from '@blueprintjs/select';
import { Fragment } from 'react';
import { COMMON_MARKETS, flagUrl, type Market, MARKETS } from '../../contracts/markets';

/** The first item: a property's market is optional. */
const NO_MARKET: Market = { code: '', name: 'No market' };
const ITEMS = [NO_MARKET, ...MARKETS];
const COMMON = new Set(COMMON_MARKETS.map((market) => market.code));
const groupOf = (market: Market) => (market.code === '' ? '' : COMMON.has(market.code) ? 'Common' : 'All countries');

/** A market's flag as the server draws it (`/img/markets/{code}.png`; the UK shows the GB flag). */
export function MarketFlag({ code, name }: { code: string; name: string }) {
  return <img className="or-market-flag" src={flagUrl(code)} alt={`${name} flag`} width={24} height={16} />;
}

const matches: ItemPredicate<Market> = (query, market) => {
  const typed = query.trim().toLowerCase();
  return market.name.toLowerCase().includes(typed) || market.code.toLowerCase() === typed;
};

const renderMarket: ItemRenderer<Market> = (market, { handleClick, handleFocus, modifiers, ref, id }) =>
  modifiers.matchesPredicate ? (
    <MenuItem
      key={market.code}
      ref={ref}
      id={id}
      roleStructure="listoption"
      active={modifiers.active}
      icon={market.code ? <MarketFlag code={market.code} name={market.name} /> : 'disable'}
      text={market.name}
      label={market.code}
      onClick={handleClick}
      onFocus={handleFocus}
    />
  ) : null;

/** Lists the common markets first under their own heading, then every other one (spec 1 section 3). */
const renderList: ItemListRenderer<Market> = ({ filteredItems, renderItem, menuProps, itemsParentRef }) => (
  <Menu {...menuProps} ulRef={itemsParentRef} role="listbox" aria-label="Markets" className="or-market-menu">
    {filteredItems.map((market, index) => (
      <Fragment key={market.code}>
        {groupOf(market) && groupOf(market) !== groupOf(filteredItems[index - 1] ?? NO_MARKET) && (
          <MenuDivider title={groupOf(market)} />
        )}
        {renderItem(market, index)}
      </Fragment>
    ))}
    {filteredItems.length === 0 && <MenuItem disabled text="Nothing found" />}
  </Menu>
);

/** The market picker of a Google Analytics view: a searchable country list with flags. */
export function MarketSelect({ value, onChange }: { value: string | null; onChange(code: string | null): void }) {
  const selected = MARKETS.find((market) => market.code === value);
  return (
    <Select<Market>
      items={ITEMS}
      itemPredicate={matches}
      itemRenderer={renderMarket}
      itemListRenderer={renderList}
      itemsEqual="code"
      activeItem={selected ?? NO_MARKET}
      onItemSelect={(market) => onChange(market.code || null)}
      inputProps={{ placeholder: 'Search countries', 'aria-label': 'Search countries' }}
      popoverProps={{ minimal: true }}
      resetOnClose
    >
      <Button
        aria-label="Market"
        icon={selected ? <MarketFlag code={selected.code} name={selected.name} /> : undefined}
        text={selected?.name ?? 'No market'}
        endIcon="caret-down"
      />
    </Select>
  );
}
