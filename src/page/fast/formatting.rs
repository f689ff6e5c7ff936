//! The active formatting list and the adoption agency: html5ever's
//! `reconstruct_active_formatting_elements`, its Noah's Ark clause as far as
//! this path keeps it, and `adoption_agency` step for step, with the moves
//! read without a tree (`move_furthest_block`).

use std::sync::Arc;

use super::names::{Name, landmark};
use super::{
    Attrs, Bail, Entry, Formatting, Link, MAX_FAST_DEPTH, MAX_SAME_FORMATTING, Ns, Open, Reader,
    Scope, link_of,
};
use crate::page::parsed::fold_whitespace;
use crate::policy::{Candidate, Region};

impl Reader<'_> {
    /// The standard's "reconstruct the active formatting elements".
    pub(super) fn reconstruct(&mut self) -> Result<(), Bail> {
        let Some(last) = self.active.last() else {
            return Ok(());
        };
        let open_or_marker = |reader: &Self, entry: &Entry| match entry {
            Entry::Marker => true,
            Entry::Element(f) => reader.is_open(f.id),
        };
        if open_or_marker(self, last) {
            return Ok(());
        }
        let mut index = self.active.len() - 1;
        while index > 0 {
            index -= 1;
            if open_or_marker(self, &self.active[index]) {
                index += 1;
                break;
            }
        }
        for at in index..self.active.len() {
            let Entry::Element(f) = &self.active[at] else {
                return Err(Bail::Formatting);
            };
            let (name, landmark, link) = (f.name, f.landmark, f.link.clone());
            let id = self.insert_made(name, Ns::Html, landmark, link, false)?;
            if let Entry::Element(f) = &mut self.active[at] {
                f.id = id;
            }
        }
        Ok(())
    }

    /// The last entry after the last marker named `name`: (index, id).
    pub(super) fn formatting_named(&self, name: Name) -> Option<(usize, u32)> {
        for (index, entry) in self.active.iter().enumerate().rev() {
            match entry {
                Entry::Marker => return None,
                Entry::Element(f) if f.name == name => return Some((index, f.id)),
                Entry::Element(_) => {}
            }
        }
        None
    }

    pub(super) fn push_formatting(&mut self, name: Name, attrs: &Attrs) -> Result<(), Bail> {
        let same = self
            .active
            .iter()
            .rev()
            .take_while(|entry| matches!(entry, Entry::Element(_)))
            .filter(|entry| matches!(entry, Entry::Element(f) if f.name == name))
            .count();
        if same > MAX_SAME_FORMATTING {
            return Err(Bail::Formatting);
        }
        let id = self.insert(name, Ns::Html, attrs, false)?;
        // Its clones are links wherever they go, even when it was made in a
        // template (a clone reconstructed after the template is read).
        let link = match self.stack.last() {
            Some(open) if open.anchor => self
                .candidates
                .last()
                .map(|c| (Arc::clone(&c.href), c.nofollow)),
            _ if name == Name::A => link_of(attrs),
            _ => None,
        };
        self.active.push(Entry::Element(Formatting {
            id,
            name,
            landmark: landmark(name, attrs.role.as_deref()),
            link,
        }));
        Ok(())
    }

    pub(super) fn clear_active_to_marker(&mut self) {
        while let Some(entry) = self.active.pop() {
            if matches!(entry, Entry::Marker) {
                return;
            }
        }
    }

    /// The adoption agency algorithm, as html5ever's `adoption_agency` runs
    /// it, step for step.
    pub(super) fn adoption_agency(&mut self, subject: Name) -> Result<(), Bail> {
        // 1.
        if self.current_is(subject)
            && let Some(current) = self.stack.last()
            && !self
                .active
                .iter()
                .any(|e| matches!(e, Entry::Element(f) if f.id == current.id))
        {
            self.pop();
            return Ok(());
        }
        // 2–4.
        for _ in 0..8 {
            // 5.
            let Some((entry_index, id)) = self.formatting_named(subject) else {
                self.end_tag_in_body_generic(subject);
                return Ok(());
            };
            // 6.
            let Some(stack_index) = self.stack.iter().rposition(|open| open.id == id) else {
                self.active.remove(entry_index);
                return Ok(());
            };
            // 7.
            if !self.in_scope(Scope::Default, |open| open.id == id) {
                return Ok(());
            }
            // 9.
            let Some(furthest) = self.stack[stack_index..]
                .iter()
                .position(|open| open.is_html_in(Name::is_special))
            else {
                // 10.
                self.pop_to(stack_index);
                self.active.remove(entry_index);
                return Ok(());
            };
            self.move_furthest_block(entry_index, stack_index, stack_index + furthest)?;
        }
        Ok(())
    }

    /// Steps 11–19 of the adoption agency: the furthest block leaves the
    /// formatting element (at `stack_index`, its entry at `entry_index`) for
    /// the common ancestor, through clones of the formatting elements
    /// between, and a clone of the formatting element takes the block's
    /// children.
    ///
    /// Read without a tree, that is: the block was the last open subtree of
    /// every element it leaves, so tree order is kept, those elements lose
    /// the block's text (the anchor text read since the block's
    /// `text_mark`), and the clones are new elements just before the block's
    /// content (its `cand_mark`) whose text is the block's. Refused where a
    /// move would change a link's landmark (a landmark between the common
    /// ancestor and the block) or would be foster parented.
    pub(super) fn move_furthest_block(
        &mut self,
        entry_index: usize,
        stack_index: usize,
        furthest: usize,
    ) -> Result<(), Bail> {
        let Entry::Element(formatting) = self.active[entry_index].clone() else {
            return Err(Bail::Formatting);
        };
        // 11.
        let Some(common) = stack_index.checked_sub(1).map(|i| self.stack[i]) else {
            return Err(Bail::Formatting);
        };
        if common.is_html_in(Name::is_foster_target) {
            return Err(Bail::Foster);
        }
        let element = self.stack[stack_index];
        let block = self.stack[furthest];
        // In a template, the clones are in its contents too: no links.
        let visible = self.templates_open == 0;
        // The formatting element's clone goes between the block and its
        // children, so its own landmark must be the block's region.
        if self.stack[stack_index..furthest]
            .iter()
            .any(|open| open.region != common.region)
            || (formatting.landmark != Region::Other && formatting.landmark != block.region)
        {
            return Err(Bail::Formatting);
        }
        // 12–13. `clones` from the block up; `bookmark_after` is the entry the
        // new one goes after (12's bookmark, moved by 13.8).
        let mut clones: Vec<Open> = Vec::new();
        let mut left: Vec<Open> = vec![element];
        let mut bookmark_after = None;
        let mut node_index = furthest;
        let mut inner = 0;
        loop {
            inner += 1;
            node_index -= 1;
            let node = self.stack[node_index];
            if node.id == element.id {
                break;
            }
            left.push(node);
            let mut position = self
                .active
                .iter()
                .position(|e| matches!(e, Entry::Element(f) if f.id == node.id));
            if inner > 3
                && let Some(at) = position.take()
            {
                self.active.remove(at);
            }
            let Some(position) = position else {
                self.stack.remove(node_index);
                continue;
            };
            let Entry::Element(f) = &mut self.active[position] else {
                return Err(Bail::Formatting);
            };
            let id = self.next_id;
            self.next_id += 1;
            f.id = id;
            let clone = Open {
                id,
                anchor: visible && f.link.is_some(),
                ..node
            };
            self.stack[node_index] = clone;
            if clones.is_empty() {
                bookmark_after = Some(id);
            }
            clones.push(clone);
        }
        // The block's grandchildren stay as deep as they were, to the depth
        // rule of `dom.rs`, though the elements it left are no longer above.
        self.moved_levels += left.len().saturating_sub(clones.len());
        // What the block leaves loses its text.
        for open in left.iter().filter(|open| open.anchor) {
            // The marks are the reader's own; a refusal, not a panic, should
            // one ever be wrong.
            let (Some(kept), true) = (
                self.text.get(open.text_mark..block.text_mark),
                open.cand_mark < self.candidates.len(),
            ) else {
                return Err(Bail::Formatting);
            };
            let folded = fold_whitespace(kept);
            self.candidates[open.cand_mark].text = if folded.is_empty() {
                Arc::clone(&self.no_text)
            } else {
                Arc::from(folded)
            };
        }
        // 15–17. The clones in tree order, the formatting element's last.
        let new_id = self.next_id;
        self.next_id += 1;
        let new = Open {
            id: new_id,
            region: block.region,
            anchor: visible && formatting.link.is_some(),
            ..element
        };
        let mut made: Vec<(Open, Option<Link>)> = Vec::new();
        for clone in clones.iter().rev() {
            let link = self.active.iter().find_map(|e| match e {
                Entry::Element(f) if f.id == clone.id => Some(f.link.clone()),
                _ => None,
            });
            made.push((*clone, link.flatten()));
        }
        made.push((new, formatting.link.clone()));
        let mut at = block.cand_mark;
        let mut marks: Vec<(u32, usize)> = Vec::new();
        for (open, link) in made {
            marks.push((open.id, at));
            if let Some((href, nofollow)) = link.filter(|_| open.anchor) {
                self.candidates.insert(
                    at,
                    Candidate {
                        href,
                        text: Arc::clone(&self.no_text),
                        nofollow,
                        region: open.region,
                    },
                );
                at += 1;
            }
        }
        let added = at - block.cand_mark;
        // 18.
        let entry = Entry::Element(Formatting {
            id: new_id,
            ..formatting
        });
        let old_entry = |reader: &Self| {
            reader
                .active
                .iter()
                .position(|e| matches!(e, Entry::Element(f) if f.id == element.id))
        };
        match bookmark_after {
            None => {
                let Some(index) = old_entry(self) else {
                    return Err(Bail::Formatting);
                };
                self.active[index] = entry;
            }
            Some(after) => {
                let Some(index) = self
                    .active
                    .iter()
                    .position(|e| matches!(e, Entry::Element(f) if f.id == after))
                else {
                    return Err(Bail::Formatting);
                };
                self.active.insert(index + 1, entry);
                if let Some(index) = old_entry(self) {
                    self.active.remove(index);
                }
            }
        }
        // 19.
        self.stack.remove(stack_index);
        let Some(block_index) = self.stack.iter().position(|open| open.id == block.id) else {
            return Err(Bail::Formatting);
        };
        self.stack.insert(block_index + 1, new);
        if self.stack.len() + self.moved_levels >= MAX_FAST_DEPTH {
            return Err(Bail::Deep);
        }
        // The marks of what moved, and of what was read inside the block.
        for (index, open) in self.stack.iter_mut().enumerate() {
            if let Some(&(_, mark)) = marks.iter().find(|(id, _)| *id == open.id) {
                open.cand_mark = mark;
                open.text_mark = block.text_mark;
            } else if open.id == block.id {
                open.cand_mark = at - usize::from(new.anchor);
            } else if index > block_index {
                open.cand_mark += added;
            }
        }
        self.open_anchors = self
            .stack
            .iter()
            .filter(|open| open.anchor)
            .map(|open| (open.cand_mark, open.text_mark))
            .collect();
        if self.open_anchors.is_empty() {
            self.text.clear();
        }
        Ok(())
    }
}
